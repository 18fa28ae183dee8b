package dev.runnel.streaming.api.functions.async;

import java.util.Collection;

/**
 * Computes the results of an async call on the task thread ({@link ResultFuture#complete(CollectionSupplier)}).
 *
 * @param <T> the type of the results
 */
@FunctionalInterface
public interface CollectionSupplier<T> {

    /** The results; an exception fails the job. Called once, on the task thread. */
    Collection<T> get() throws Exception;
}
