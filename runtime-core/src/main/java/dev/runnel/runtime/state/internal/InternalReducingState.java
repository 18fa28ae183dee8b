package dev.runnel.runtime.state.internal;

import dev.runnel.api.common.state.ReducingState;

/** Internal form of {@link ReducingState}. */
public interface InternalReducingState<K, N, T> extends InternalMergingState<K, N, T, T, T>, ReducingState<T> {}
