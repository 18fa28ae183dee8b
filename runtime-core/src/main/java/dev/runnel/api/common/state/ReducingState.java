package dev.runnel.api.common.state;

/**
 * A running reduction per key: {@link #add(Object)} combines the value with the stored one using the
 * descriptor's {@code ReduceFunction}.
 */
public interface ReducingState<T> extends MergingState<T, T> {}
