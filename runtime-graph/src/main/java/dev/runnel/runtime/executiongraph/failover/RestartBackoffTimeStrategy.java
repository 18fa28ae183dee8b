package dev.runnel.runtime.executiongraph.failover;

/**
 * Decides whether a failed job is restarted and how long to wait first, as Flink's interface of the same
 * name. One instance lives as long as the job and sees every failure in order:
 *
 * <pre>
 *   failure ──► notifyFailure(cause) ──► canRestart()? ──no──► the job fails for good
 *                                            │yes
 *                                            ▼
 *                          wait getBackoffTime() ms, then restart
 * </pre>
 *
 * <p>Not thread-safe: the engine calls it from the one thread that handles the job's failures. Time-based
 * implementations read a clock given at construction, so tests control time.
 */
public interface RestartBackoffTimeStrategy {

    /** Whether the job may restart after the failures notified so far. */
    boolean canRestart();

    /** Milliseconds to wait before the restart that follows the last notified failure; 0 or more. */
    long getBackoffTime();

    /** Records a failure of the job; {@code cause} is not null. Call it before {@link #canRestart()}. */
    void notifyFailure(Throwable cause);

    /** A sentence naming the strategy and its settings, for logs and for the message of a job that gave up. */
    default String getDescription() {
        return toString();
    }

    /** Creates a fresh strategy (with no failures recorded) for each run of a job. Thread-safe. */
    interface Factory {
        RestartBackoffTimeStrategy create();
    }
}
