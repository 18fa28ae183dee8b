package dev.runnel.api.common;

/**
 * The state of a job, with Flink's names. The embedded runtime goes CREATED → RUNNING → FINISHED, or through
 * RESTARTING (a failure the restart strategy recovers from) back to RUNNING, or to FAILED or CANCELED.
 */
public enum JobStatus {
    INITIALIZING,
    CREATED,
    RUNNING,
    FAILING,
    FAILED,
    CANCELLING,
    CANCELED,
    FINISHED,
    RESTARTING,
    SUSPENDED,
    RECONCILING;

    /** Finished, failed or cancelled: the job will never run again, here or after a recovery. */
    public boolean isGloballyTerminalState() {
        return this == FINISHED || this == FAILED || this == CANCELED;
    }

    /** Globally terminal, or suspended (stopped here, may be recovered elsewhere). */
    public boolean isTerminalState() {
        return isGloballyTerminalState() || this == SUSPENDED;
    }
}
