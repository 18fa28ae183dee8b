package dev.runnel.streaming.api.functions.source;

/**
 * A {@link ParallelSourceFunction} with the rich function lifecycle ({@code open}, {@code close},
 * runtime context): each subtask runs its own copy, which can find its share of the input through
 * {@code getRuntimeContext().getTaskInfo().getIndexOfThisSubtask()}.
 *
 * @param <OUT> the type of the records the source produces
 */
public abstract class RichParallelSourceFunction<OUT> extends RichSourceFunction<OUT>
        implements ParallelSourceFunction<OUT> {

    private static final long serialVersionUID = 1L;
}
