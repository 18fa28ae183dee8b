package dev.runnel.streaming.api.functions.source;

import dev.runnel.api.common.functions.AbstractRichFunction;

/**
 * A {@link SourceFunction} with the rich function lifecycle: {@code open} before {@code run} (on the
 * task thread), {@code close} after it, and the runtime context (subtask index, metrics,
 * accumulators). Runs with parallelism 1; see {@link RichParallelSourceFunction} for a parallel one.
 *
 * @param <OUT> the type of the records the source produces
 */
public abstract class RichSourceFunction<OUT> extends AbstractRichFunction implements SourceFunction<OUT> {

    private static final long serialVersionUID = 1L;
}
