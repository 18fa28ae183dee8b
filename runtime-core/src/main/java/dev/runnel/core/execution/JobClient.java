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

    /**
     * Runnel's own, beyond Flink: rescales the running job in place. The operators named by uid (every
     * operator of their chain) run at the given parallelism afterwards; the job stops at a snapshot taken in
     * memory, its tasks are replaced at the new parallelism with the state redistributed by key group, and it
     * resumes, without a restart and without writing the state anywhere. Completes once the new tasks run.
     *
     * @throws IllegalArgumentException (in the future) for an unknown uid, a parallelism outside
     *     {@code [1, max parallelism]}, or a forward edge that would connect different parallelisms
     */
    CompletableFuture<Void> rescale(java.util.Map<String, Integer> parallelismByUid);
}
