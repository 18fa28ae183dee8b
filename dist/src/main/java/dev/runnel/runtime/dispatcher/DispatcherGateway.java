package dev.runnel.runtime.dispatcher;

import dev.runnel.api.common.JobID;
import dev.runnel.core.execution.SavepointFormatType;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/**
 * What the JobManager's REST API and dashboard see of the cluster: its TaskManagers and jobs, and the actions
 * on them. The JobManager implements it; the REST layer turns each answer into Flink's JSON. Thread-safe:
 * called from the REST server's event loop, so every method returns quickly (long work completes a future).
 * Unknown jobs are {@code Optional.empty()} (the REST layer answers 404); a wrong argument is an
 * {@link IllegalArgumentException} whose message says what was wrong (400).
 */
public interface DispatcherGateway {

    ClusterOverview overview();

    List<TaskManagerInfo> taskManagers();

    List<JobOverview> jobs();

    Optional<JobDetails> job(JobID jobId);

    Optional<VertexBackPressure> backPressure(JobID jobId, String vertexId);

    Optional<CheckpointingStatistics> checkpoints(JobID jobId);

    Optional<JobExceptions> exceptions(JobID jobId);

    /** The job's result once it is globally terminal; empty while it runs (and for an unknown job). */
    Optional<JobResult> result(JobID jobId);

    /**
     * Submits a job: {@code jobGraph} is the Java-serialized {@code dev.runnel.runtime.jobgraph.JobGraph}, read
     * with a class loader over {@code jars} (the user's code). Completes with the job's id once accepted (the
     * job then runs on its own); fails with a message saying what was wrong with the submission.
     */
    CompletableFuture<JobID> submit(byte[] jobGraph, List<Path> jars);

    CompletableFuture<Void> cancel(JobID jobId);

    /** Completes with the savepoint's path. */
    CompletableFuture<String> triggerSavepoint(JobID jobId, String targetDirectory, SavepointFormatType format,
            boolean cancelJob);

    /** Stop-with-savepoint; completes with the savepoint's path once the job stopped. */
    CompletableFuture<String> stopWithSavepoint(JobID jobId, String targetDirectory, SavepointFormatType format,
            boolean drain);

    /** Runnel's in-place rescale: every vertex of the job to {@code parallelism}. */
    CompletableFuture<Void> rescale(JobID jobId, int parallelism);

    /** This process's metrics in Prometheus' text exposition format (version 0.0.4). */
    String prometheusMetrics();

    // ------------------------------------------------------------------ what the answers hold

    /** Flink's {@code /overview}. */
    record ClusterOverview(int taskManagers, int slotsTotal, int slotsAvailable, int jobsRunning, int jobsFinished,
            int jobsCancelled, int jobsFailed, String version, String commit) {}

    /** One TaskManager of {@code /taskmanagers}. {@code lastHeartbeat} is epoch milliseconds. */
    record TaskManagerInfo(String id, String address, int dataPort, long lastHeartbeat, int slotsNumber,
            int freeSlots, long physicalMemoryBytes, int cpuCores) {}

    /**
     * One job of {@code /jobs/overview}. {@code state} is a {@code JobStatus} name; times are epoch
     * milliseconds, {@code endTime} -1 while running; {@code taskCounts} maps an execution state name
     * (Flink's: CREATED, SCHEDULED, DEPLOYING, RUNNING, FINISHED, CANCELING, CANCELED, FAILED, RECONCILING,
     * INITIALIZING) to a count.
     */
    record JobOverview(JobID jobId, String name, String state, long startTime, long endTime, long lastModification,
            Map<String, Integer> taskCounts) {}

    /** {@code /jobs/<jobId>}: the job, its vertices (chains) and edges. */
    record JobDetails(JobOverview overview, List<VertexDetails> vertices, List<EdgeDetails> edges, long now) {}

    /**
     * One job vertex. {@code operators} are the chained operators' names, head first; {@code subtaskStates} the
     * execution state of each subtask; the counters are totals over the subtasks; rates are per second over the
     * last few seconds; {@code busyRatio}/{@code backPressuredRatio} are the maxima over subtasks, 0..1.
     */
    record VertexDetails(String id, String name, int parallelism, int maxParallelism, String state,
            List<String> operators, List<String> subtaskStates, long recordsIn, long recordsOut, long bytesIn,
            long bytesOut, double recordsInPerSecond, double recordsOutPerSecond, double busyRatio,
            double backPressuredRatio) {}

    /** One job edge: {@code partitioner} as Flink prints it (HASH, REBALANCE, FORWARD, ...), {@code pattern} POINTWISE or ALL_TO_ALL. */
    record EdgeDetails(String sourceVertexId, String targetVertexId, String partitioner, String pattern) {}

    /** Flink's {@code /jobs/<jobId>/vertices/<vertexId>/backpressure}; ratios 0..1 per subtask. */
    record VertexBackPressure(String vertexId, long endTimestamp, List<SubtaskBackPressure> subtasks) {}

    record SubtaskBackPressure(int subtask, double backPressuredRatio, double idleRatio, double busyRatio) {}

    /** Flink's {@code /jobs/<jobId>/checkpoints}, newest first in {@code history}. */
    record CheckpointingStatistics(int total, int inProgress, int completed, int failed, int restored,
            List<CheckpointStatistics> history) {}

    /** {@code status} IN_PROGRESS, COMPLETED or FAILED; {@code externalPath} null unless retained. */
    record CheckpointStatistics(long id, String status, boolean savepoint, long triggerTimestamp,
            long latestAckTimestamp, long stateSize, long endToEndDurationMillis, int numSubtasks,
            int numAcknowledgedSubtasks, String externalPath, String failureMessage) {}

    /** Flink's {@code /jobs/<jobId>/exceptions}: the root cause and the history, newest first. */
    record JobExceptions(ExceptionInfo root, List<ExceptionInfo> history) {}

    /**
     * {@code taskName} and {@code location} may be null (a failure of the job as a whole); {@code concurrent}
     * holds the other failures of the same attempt (Flink's {@code concurrentExceptions}), never null.
     */
    record ExceptionInfo(String exceptionName, String stacktrace, long timestamp, String taskName, String location,
            List<ExceptionInfo> concurrent) {}

    /**
     * Flink's {@code /jobs/<jobId>/execution-result}: {@code applicationStatus} SUCCEEDED, FAILED or CANCELED;
     * each accumulator's value Java-serialized and Base64-encoded, as Flink's REST API sends it (a client reads it
     * back with the job's class loader); {@code failure} null unless failed.
     */
    record JobResult(JobID jobId, String applicationStatus, long netRuntimeMillis, Map<String, String> accumulators,
            ExceptionInfo failure) {}
}
