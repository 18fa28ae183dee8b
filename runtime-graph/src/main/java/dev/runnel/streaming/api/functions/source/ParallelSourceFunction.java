package dev.runnel.streaming.api.functions.source;

/**
 * A {@link SourceFunction} that can run in parallel: each parallel subtask runs its own copy of the
 * function, which must then produce its share of the input (e.g. by its subtask index from the
 * runtime context of a {@link RichParallelSourceFunction}). Flink's legacy interface.
 *
 * @param <OUT> the type of the records the source produces
 */
public interface ParallelSourceFunction<OUT> extends SourceFunction<OUT> {}
