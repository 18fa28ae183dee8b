package dev.runnel.api.connector.source.util.ratelimit;

import java.util.concurrent.CompletionStage;

/**
 * Paces one source reader: before emitting a record the reader asks for a permit, and emits only
 * once the returned stage has completed. Created per reader by a {@link RateLimiterStrategy}.
 *
 * <p>Never blocks: when no permit is free, {@link #acquire()} returns at once with a stage that a
 * timer completes when the permit is due, so a reader can return {@code NOTHING_AVAILABLE} and hand
 * that stage to the task as its availability future. The stage may complete on a timer thread; attach
 * only cheap callbacks (waking a task). Used from one thread (the reader's task thread); not
 * thread-safe.
 */
public interface RateLimiter {

    /**
     * Takes the next permit. Returns a completed stage if it is due now; otherwise a stage that
     * completes when it is due. Each call takes one permit, so call it once per record and wait for
     * its stage before calling again. Never returns null.
     */
    CompletionStage<Void> acquire();
}
