package dev.runnel.streaming.api.functions.async;

import java.io.Serializable;

/**
 * When an async operator asks its function again for a record: after a result or an error its predicate
 * accepts, while {@link #canRetry} allows, after {@link #getBackoffTimeMillis}. The record's timeout covers
 * every attempt. Serializable; called on the task thread.
 *
 * @param <OUT> the result type
 */
public interface AsyncRetryStrategy<OUT> extends Serializable {

    /** Whether another attempt may follow {@code currentAttempts} attempts. */
    boolean canRetry(int currentAttempts);

    /** How long to wait before attempt {@code currentAttempts + 1}. */
    long getBackoffTimeMillis(int currentAttempts);

    /** Which results and errors call for another attempt. */
    AsyncRetryPredicate<OUT> getRetryPredicate();
}
