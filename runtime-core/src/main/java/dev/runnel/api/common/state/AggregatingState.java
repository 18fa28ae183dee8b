package dev.runnel.api.common.state;

/**
 * A running aggregate per key: the descriptor's {@code AggregateFunction} folds each added value into
 * an accumulator, and {@link #get()} returns the function's result for it.
 */
public interface AggregatingState<IN, OUT> extends MergingState<IN, OUT> {}
