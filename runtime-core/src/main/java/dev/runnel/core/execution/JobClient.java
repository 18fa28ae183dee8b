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

    /**
     * Takes a savepoint of the running job in {@code formatType} into {@code savepointDirectory} (null: the
     * configured {@code execution.checkpointing.savepoint-dir}); completes with the savepoint's path. The job
     * goes on. Restore from it with {@code execution.state-recovery.path}.
     */
    CompletableFuture<String> triggerSavepoint(String savepointDirectory, SavepointFormatType formatType);

    /**
     * Takes a savepoint and stops the job: nothing after the savepoint's barrier is processed, and the job
     * ends FINISHED. With {@code advanceToEndOfEventTime} the sources first emit the maximum watermark, so
     * every event-time timer and window fires into the output (Flink's "drain"). Completes with the path.
     */
    CompletableFuture<String> stopWithSavepoint(boolean advanceToEndOfEventTime, String savepointDirectory,
            SavepointFormatType formatType);
}
