package dev.runnel.streaming.runtime.tasks;

/**
 * What asks a task to stop pulling input between two records: cancellation (set by any thread) and
 * backpressure (an output that reached its limit, set by the task's own writers). Checked once per record,
 * so it is two field reads, no call.
 */
final class TaskSignals {

    /** Set once by {@link StreamTask#cancel()}; never cleared. */
    volatile boolean cancelled;

    /** Set by a writer output whose channel reached its limit; cleared by the task once outputs have room. */
    boolean outputBlocked;

    /**
     * Records the task's inputs handed to its operators, and its network outputs sent: written by the task
     * thread only (counted per batch on the input side), read by the metrics sampler without synchronization
     * (a metric may be a moment old).
     */
    long recordsIn;
    long recordsOut;

    /** Whether the input should stop after the current record and return to the mailbox loop. */
    boolean shouldYield() {
        return outputBlocked | cancelled;
    }
}
