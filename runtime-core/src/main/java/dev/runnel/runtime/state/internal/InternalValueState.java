package dev.runnel.runtime.state.internal;

import dev.runnel.api.common.state.ValueState;

/** Internal form of {@link ValueState}. */
public interface InternalValueState<K, N, T> extends InternalKvState<K, N, T>, ValueState<T> {}
