package dev.runnel.streaming.api.functions.async;

import dev.runnel.api.common.functions.Function;
import java.util.concurrent.TimeoutException;

/**
 * A function that starts a request for each input and completes its {@link ResultFuture} later, from
 * any thread, so that a slow external system (a database, a web service) does not stall the stream.
 * Used with {@link dev.runnel.streaming.api.datastream.AsyncDataStream}.
 *
 * <p>Thread: {@link #asyncInvoke} and {@link #timeout} are called on the task thread and must not block;
 * the future may be completed on any thread, once (later completions are ignored).
 *
 * @param <IN> the input type
 * @param <OUT> the type of the results
 */
public interface AsyncFunction<IN, OUT> extends Function {

    /** Starts the asynchronous work for {@code input}; complete {@code resultFuture} when it is done. */
    void asyncInvoke(IN input, ResultFuture<OUT> resultFuture) throws Exception;

    /**
     * Called when {@code input} was not completed within the operator's timeout. By default this fails
     * the job with a {@link TimeoutException}, as in Flink; override it to complete {@code resultFuture}
     * with a fallback instead.
     */
    default void timeout(IN input, ResultFuture<OUT> resultFuture) throws Exception {
        resultFuture.completeExceptionally(new TimeoutException("Async function call has timed out."));
    }
}
