package dev.runnel.streaming.api.functions.async;

import dev.runnel.api.common.functions.AbstractRichFunction;

/**
 * An {@link AsyncFunction} with {@code open}/{@code close} and the runtime context, for example to create
 * a client per subtask in {@code open} and release it in {@code close}.
 *
 * <p>Thread: as {@link AsyncFunction}; {@code open} and {@code close} run on the task thread. Unlike Flink,
 * Runnel does not forbid state and accumulators in the runtime context; use them only on the task thread
 * (in {@code asyncInvoke} or {@code timeout}), never from the thread that completes the future.
 *
 * @param <IN> the input type
 * @param <OUT> the type of the results
 */
public abstract class RichAsyncFunction<IN, OUT> extends AbstractRichFunction implements AsyncFunction<IN, OUT> {

    private static final long serialVersionUID = 1L;
}
