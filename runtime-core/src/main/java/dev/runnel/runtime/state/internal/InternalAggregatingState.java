package dev.runnel.runtime.state.internal;

import dev.runnel.api.common.state.AggregatingState;

/** Internal form of {@link AggregatingState}; the stored value is the accumulator. */
public interface InternalAggregatingState<K, N, IN, ACC, OUT>
        extends InternalMergingState<K, N, IN, ACC, OUT>, AggregatingState<IN, OUT> {}
