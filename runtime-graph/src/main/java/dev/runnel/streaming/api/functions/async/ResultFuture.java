package dev.runnel.streaming.api.functions.async;

import java.util.Collection;

/**
 * Where an {@link AsyncFunction} hands in the results of one input. Thread-safe: may be called from any
 * thread. Only the first completion counts; any later one is ignored. The results are emitted later on
 * the task thread, with the input's timestamp.
 *
 * @param <OUT> the type of the results
 */
public interface ResultFuture<OUT> {

    /** Completes with {@code result} (an empty collection emits nothing; null is refused). */
    void complete(Collection<OUT> result);

    /** Fails the job: the operator reports {@code error}, naming itself and the input. */
    void completeExceptionally(Throwable error);

    /**
     * Completes with what {@code supplier} returns; the supplier runs later on the task thread, so it may
     * do the final, cheap part of the work there. An exception from it fails the job like
     * {@link #completeExceptionally}.
     */
    default void complete(CollectionSupplier<OUT> supplier) {
        throw new UnsupportedOperationException(getClass().getName() + " does not support complete(CollectionSupplier)");
    }
}
