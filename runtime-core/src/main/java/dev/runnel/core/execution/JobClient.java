package dev.runnel.core.execution;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.JobID;
import dev.runnel.api.common.JobStatus;
import java.util.concurrent.CompletableFuture;

/** A handle on a submitted job, from {@code executeAsync}. Thread-safe. */
public interface JobClient {

    JobID getJobID();

    CompletableFuture<JobStatus> getJobStatus();

    /** Cancels the job; completes when every task has stopped. */
    CompletableFuture<Void> cancel();

    /**
     * Completes with the result when the job finishes, or exceptionally with a
     * {@code JobExecutionException} carrying the failure.
     */
    CompletableFuture<JobExecutionResult> getJobExecutionResult();
}
