package dev.runnel.client.rest;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.JobID;
import dev.runnel.api.common.JobStatus;
import dev.runnel.core.execution.JobClient;
import dev.runnel.core.execution.JobExecutionException;
import dev.runnel.core.execution.SavepointFormatType;
import java.time.Duration;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Supplier;

/**
 * A {@link JobClient} on a job that runs in a cluster, over the JobManager's REST API. Every call returns at
 * once; the work (a request, or polling an asynchronous operation every {@link #POLL_INTERVAL}) runs on a
 * shared daemon thread pool, so an abandoned client keeps no JVM alive. A failed request completes the future
 * exceptionally with the client's exception ({@link JobManagerUnreachableException},
 * {@link RestClientException}). Thread-safe.
 */
public final class RestJobClient implements JobClient {

    /** How often an asynchronous operation (result, savepoint, rescale) is polled. */
    public static final Duration POLL_INTERVAL = Duration.ofMillis(200);

    private static final ExecutorService POLLERS = Executors.newCachedThreadPool(task -> {
        Thread thread = new Thread(task, "runnel-rest-client");
        thread.setDaemon(true);
        return thread;
    });

    private final RestClusterClient client;
    private final JobID jobId;
    /** The result, polled for once however often it is asked for; guarded by this. */
    private CompletableFuture<JobExecutionResult> result;

    public RestJobClient(RestClusterClient client, JobID jobId) {
        this.client = client;
        this.jobId = jobId;
    }

    @Override
    public JobID getJobID() {
        return jobId;
    }

    @Override
    public CompletableFuture<JobStatus> getJobStatus() {
        return CompletableFuture.supplyAsync(() -> client.jobStatus(jobId), POLLERS);
    }

    /** Completes once the cancel request was accepted and the job reached a terminal state. */
    @Override
    public CompletableFuture<Void> cancel() {
        return CompletableFuture.supplyAsync(() -> {
            client.cancel(jobId);
            poll(() -> client.jobStatus(jobId).isGloballyTerminalState() ? Optional.of(true) : Optional.empty());
            return null;
        }, POLLERS);
    }

    /**
     * Polls {@code execution-result} until the job is globally terminal; a job that FAILED or was CANCELED
     * completes exceptionally with a {@link JobExecutionException} whose cause is the cluster's
     * {@link RemoteFailure}. Accumulators arrive as the text the cluster printed of them. Every call returns
     * the same future.
     */
    @Override
    public synchronized CompletableFuture<JobExecutionResult> getJobExecutionResult() {
        if (result == null) {
            result = pollResult();
        }
        return result;
    }

    private CompletableFuture<JobExecutionResult> pollResult() {
        return CompletableFuture.supplyAsync(() -> poll(() -> client.executionResult(jobId)), POLLERS)
                .thenCompose(result -> {
                    if ("SUCCEEDED".equals(result.applicationStatus())) {
                        return CompletableFuture.completedFuture(new JobExecutionResult(jobId,
                                result.netRuntimeMillis(), accumulatorValues(result.accumulators())));
                    }
                    String message = "CANCELED".equals(result.applicationStatus()) ? "Job " + jobId + " was cancelled."
                            : "Job " + jobId + " failed" + (result.failure() == null ? "."
                                    : ": " + result.failure().getMessage());
                    return CompletableFuture.failedFuture(new JobExecutionException(jobId, message, result.failure()));
                });
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(String savepointDirectory, SavepointFormatType formatType) {
        return CompletableFuture.supplyAsync(() -> {
            String trigger = client.triggerSavepoint(jobId, savepointDirectory, formatType, false);
            return poll(() -> client.savepointStatus(jobId, trigger));
        }, POLLERS);
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(boolean advanceToEndOfEventTime, String savepointDirectory,
            SavepointFormatType formatType) {
        return CompletableFuture.supplyAsync(() -> {
            String trigger = client.stopWithSavepoint(jobId, savepointDirectory, advanceToEndOfEventTime, formatType);
            return poll(() -> client.savepointStatus(jobId, trigger));
        }, POLLERS);
    }

    /**
     * The REST API rescales a whole job to one parallelism, so this accepts only maps that give every named
     * operator the same parallelism, and rescales every vertex to it; see {@link #rescale(int)}.
     */
    @Override
    public CompletableFuture<Void> rescale(Map<String, Integer> parallelismByUid) {
        if (parallelismByUid.isEmpty() || new HashSet<>(parallelismByUid.values()).size() != 1) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("Over REST a job rescales as a whole "
                    + "to one parallelism, but " + parallelismByUid + " asks for " + parallelismByUid.values()
                    + "; give every operator the same parallelism, or call rescale(int)"));
        }
        return rescale(parallelismByUid.values().iterator().next());
    }

    /** Rescales every vertex of the job in place to {@code parallelism}; completes once the new tasks run. */
    public CompletableFuture<Void> rescale(int parallelism) {
        return CompletableFuture.supplyAsync(() -> {
            String trigger = client.triggerRescale(jobId, parallelism);
            poll(() -> client.rescaleStatus(jobId, trigger) ? Optional.of(true) : Optional.empty());
            return null;
        }, POLLERS);
    }

    /** Calls {@code check} until it answers; an exception of it ends the wait. */
    private static <T> T poll(Supplier<Optional<T>> check) {
        while (true) {
            Optional<T> answer = check.get();
            if (answer.isPresent()) {
                return answer.get();
            }
            try {
                Thread.sleep(POLL_INTERVAL.toMillis());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for the JobManager", e);
            }
        }
    }

    /**
     * The accumulators' values: each arrives Java-serialized and Base64-encoded (Flink's REST form) and is read with
     * the calling thread's context class loader (the CLI's is the user jar's); a value that is not in that form
     * stays the text it came as.
     */
    static Map<String, Object> accumulatorValues(Map<String, String> encoded) {
        Map<String, Object> values = new LinkedHashMap<>();
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        encoded.forEach((name, text) -> {
            Object value = text;
            try {
                byte[] bytes = java.util.Base64.getDecoder().decode(text);
                value = dev.runnel.util.InstantiationUtil.deserialize(bytes,
                        loader != null ? loader : RestJobClient.class.getClassLoader(), "accumulator '" + name + "'");
            } catch (RuntimeException e) {
                // not a serialized value: keep the text
            }
            values.put(name, value);
        });
        return values;
    }
}
