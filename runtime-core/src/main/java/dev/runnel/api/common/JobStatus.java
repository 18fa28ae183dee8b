package dev.runnel.api.common;

/** The lifecycle of a job. */
public enum JobStatus {
    CREATED,
    RUNNING,
    FINISHED,
    FAILED,
    CANCELED;

    /** Whether the job will not change state again. */
    public boolean isTerminal() {
        return this == FINISHED || this == FAILED || this == CANCELED;
    }
}
