package dev.runnel.core.execution;

import dev.runnel.api.common.JobID;

/** A job failed or was cancelled; the cause is the first failure (operator, subtask and record named). */
public class JobExecutionException extends Exception {

    private static final long serialVersionUID = 1L;

    private final JobID jobId;

    public JobExecutionException(JobID jobId, String message, Throwable cause) {
        super(message, cause);
        this.jobId = jobId;
    }

    public JobID getJobID() {
        return jobId;
    }
}
