package dev.runnel.runtime.rest;

import dev.runnel.api.common.JobID;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.dispatcher.DispatcherGateway;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A hand-written {@link DispatcherGateway} for the REST tests: one running WordCount-shaped job whose numbers make
 * its keyed vertex the bottleneck, and recorded actions. Savepoints and rescales complete only when the test
 * completes {@link #pendingSavepoint} / {@link #pendingRescale}. Thread-safe enough for the event loop and a test.
 */
final class InMemoryDispatcherGateway implements DispatcherGateway {

    static final JobID JOB = JobID.fromHexString("0123456789abcdef0123456789abcdef");
    static final long START = 1_700_000_000_000L;

    record Submission(byte[] jobGraph, List<Path> jars, List<byte[]> jarContents) {}

    record SavepointCall(JobID job, String directory, SavepointFormatType format, boolean cancelOrDrain, boolean stop) {}

    final Map<JobID, String> states = new ConcurrentHashMap<>(Map.of(JOB, "RUNNING"));
    final List<Submission> submissions = new CopyOnWriteArrayList<>();
    final List<SavepointCall> savepoints = new CopyOnWriteArrayList<>();
    final List<Integer> rescales = new CopyOnWriteArrayList<>();
    volatile CompletableFuture<String> pendingSavepoint = new CompletableFuture<>();
    volatile CompletableFuture<Void> pendingRescale = new CompletableFuture<>();
    volatile String metrics = "# TYPE runnel_jobmanager_numRunningJobs gauge\nrunnel_jobmanager_numRunningJobs 1.0\n";

    /** The keyed vertex's busy ratio; a test lowers it to see the dashboard's sentence change. */
    volatile double sumBusyRatio = 0.97;

    List<VertexDetails> vertices() {
        return List.of(
                new VertexDetails("v0", "Collection Source", 1, 128, "RUNNING", List.of("Collection Source"),
                        List.of("RUNNING"), 0, 5000, 0, 60000, 0, 1000, 0.12, 0.40),
                new VertexDetails("v1", "Flat Map", 2, 128, "RUNNING", List.of("Flat Map"),
                        List.of("RUNNING", "RUNNING"), 5000, 25000, 60000, 300000, 1000, 5000, 0.30, 0.88),
                new VertexDetails("v3", "Sum -> Print to Std. Out", 2, 128, "RUNNING",
                        List.of("Sum", "Print to Std. Out"), List.of("RUNNING", "DEPLOYING"), 25000, 25000,
                        300000, 0, 5000, 5000, sumBusyRatio, 0.02));
    }

    List<EdgeDetails> edges() {
        return List.of(new EdgeDetails("v0", "v1", "REBALANCE", "ALL_TO_ALL"),
                new EdgeDetails("v1", "v3", "HASH", "ALL_TO_ALL"));
    }

    @Override
    public ClusterOverview overview() {
        return new ClusterOverview(2, 8, 5, 1, 0, 0, 0, "0.1.0-SNAPSHOT", "abc1234");
    }

    @Override
    public List<TaskManagerInfo> taskManagers() {
        return List.of(new TaskManagerInfo("tm-1", "127.0.0.1", 6121, START + 5, 4, 2, 8L << 30, 2),
                new TaskManagerInfo("tm-2", "127.0.0.1", 6122, START + 6, 4, 3, 8L << 30, 2));
    }

    @Override
    public List<JobOverview> jobs() {
        List<JobOverview> jobs = new ArrayList<>();
        states.forEach((id, state) -> jobs.add(overview(id, state)));
        return jobs;
    }

    private static JobOverview overview(JobID id, String state) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        counts.put("RUNNING", 4);
        counts.put("DEPLOYING", 1);
        long end = state.equals("RUNNING") ? -1 : START + 9000;
        return new JobOverview(id, "WordCount", state, START, end, START + 100, counts);
    }

    @Override
    public Optional<JobDetails> job(JobID jobId) {
        String state = states.get(jobId);
        return state == null ? Optional.empty()
                : Optional.of(new JobDetails(overview(jobId, state), vertices(), edges(), START + 10_000));
    }

    @Override
    public Optional<VertexBackPressure> backPressure(JobID jobId, String vertexId) {
        if (!states.containsKey(jobId)) {
            return Optional.empty();
        }
        return vertices().stream().filter(v -> v.id().equals(vertexId)).findFirst().map(v -> {
            List<SubtaskBackPressure> subtasks = new ArrayList<>();
            for (int i = 0; i < v.parallelism(); i++) {
                double bp = v.backPressuredRatio() * (i == 0 ? 1 : 0.5);
                subtasks.add(new SubtaskBackPressure(i, bp, 1 - bp - v.busyRatio() * 0.5, v.busyRatio() * 0.5));
            }
            return new VertexBackPressure(vertexId, START + 9_999, subtasks);
        });
    }

    @Override
    public Optional<CheckpointingStatistics> checkpoints(JobID jobId) {
        if (!states.containsKey(jobId)) {
            return Optional.empty();
        }
        return Optional.of(new CheckpointingStatistics(3, 1, 1, 1, 0, List.of(
                new CheckpointStatistics(3, "IN_PROGRESS", false, START + 3000, START + 3100, 0, 100, 5, 2, null,
                        null),
                new CheckpointStatistics(2, "FAILED", false, START + 2000, START + 2500, 0, 500, 5, 3, null,
                        "Checkpoint expired before completing"),
                new CheckpointStatistics(1, "COMPLETED", false, START + 1000, START + 1200, 4096, 200, 5, 5,
                        "file:/tmp/chk-1", null))));
    }

    @Override
    public Optional<JobExceptions> exceptions(JobID jobId) {
        if (!states.containsKey(jobId)) {
            return Optional.empty();
        }
        ExceptionInfo e = new ExceptionInfo("java.lang.IllegalStateException",
                "java.lang.IllegalStateException: boom\n\tat Sum.process(Sum.java:1)", START + 500,
                "Sum -> Print to Std. Out (1/2)", "127.0.0.1:6121", List.of(new ExceptionInfo(
                        "dev.runnel.runtime.network.netty.ChannelFailedException", "channel e0[0->1] failed",
                        START + 501, "Source (1/2)", "127.0.0.1:6122", List.of())));
        return Optional.of(new JobExceptions(e, List.of(e)));
    }

    @Override
    public Optional<JobResult> result(JobID jobId) {
        String state = states.get(jobId);
        if (state == null || state.equals("RUNNING")) {
            return Optional.empty();
        }
        return Optional.of(new JobResult(jobId, state.equals("CANCELED") ? "CANCELED" : "SUCCEEDED", 9000,
                Map.of("records", "25000"), null));
    }

    @Override
    public CompletableFuture<JobID> submit(byte[] jobGraph, List<Path> jars) {
        if (jobGraph.length == 0) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("the job graph is empty"));
        }
        List<byte[]> contents = new ArrayList<>();
        try {
            for (Path jar : jars) {
                contents.add(Files.readAllBytes(jar));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        submissions.add(new Submission(jobGraph, jars, contents));
        JobID id = JobID.generate();
        states.put(id, "RUNNING");
        return CompletableFuture.completedFuture(id);
    }

    /** What {@link #cancel} answers with; null: cancel at once. */
    volatile CompletableFuture<Void> cancelAnswer;

    @Override
    public CompletableFuture<Void> cancel(JobID jobId) {
        if (cancelAnswer != null) {
            return cancelAnswer;
        }
        states.put(jobId, "CANCELED");
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(JobID jobId, String targetDirectory, SavepointFormatType format,
            boolean cancelJob) {
        savepoints.add(new SavepointCall(jobId, targetDirectory, format, cancelJob, false));
        return pendingSavepoint;
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(JobID jobId, String targetDirectory, SavepointFormatType format,
            boolean drain) {
        savepoints.add(new SavepointCall(jobId, targetDirectory, format, drain, true));
        return pendingSavepoint;
    }

    @Override
    public CompletableFuture<Void> rescale(JobID jobId, int parallelism) {
        rescales.add(parallelism);
        return pendingRescale;
    }

    @Override
    public String prometheusMetrics() {
        return metrics;
    }
}
