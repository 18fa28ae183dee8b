package dev.runnel.runtime.minicluster;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.JobID;
import dev.runnel.api.common.JobStatus;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.configuration.Configuration;
import dev.runnel.core.execution.JobClient;
import dev.runnel.core.execution.JobExecutionException;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.metrics.SimpleMetricGroup;
import dev.runnel.runtime.jobgraph.ChainedOperator;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.jobgraph.ShuffleDeployment;
import dev.runnel.runtime.shuffle.TaskLocation;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.runtime.source.SourceCoordinator;
import dev.runnel.streaming.runtime.source.SourceOperator;
import dev.runnel.streaming.runtime.tasks.StreamTask;
import dev.runnel.streaming.runtime.tasks.TaskCancellationTimeoutException;
import dev.runnel.streaming.runtime.tasks.TaskCancelledException;
import dev.runnel.streaming.runtime.tasks.TaskDeployment;
import dev.runnel.streaming.runtime.tasks.TaskServices;
import dev.runnel.util.InstantiationUtil;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job running in the embedded runtime: its source coordinators, its tasks (threads), and the
 * bookkeeping that ends it. The first task failure fails the job and cancels every other task; the
 * job completes only once every task thread has stopped.
 */
final class EmbeddedJob implements JobClient, StreamTask.TaskListener {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedJob.class);

    private final JobID jobId = JobID.generate();
    private final JobGraph job;
    private final Configuration configuration;
    /** Where every TaskManager of the job is; the job's slot s runs on TaskManager s mod n. */
    private final List<TaskLocation> taskManagers;
    /** The shuffles of the TaskManagers in this JVM, by index into {@link #taskManagers}; the others run elsewhere. */
    private final Map<Integer, ShuffleEnvironment> localTaskManagers;
    /** Whether this job made the shuffles (and closes them at its end) or was handed them. */
    private final boolean ownsShuffles;
    private final StateBackend stateBackend;
    private final ScheduledExecutorService scheduler;
    private final Map<String, SourceCoordinator<?, ?>> coordinators = new HashMap<>();
    private final List<StreamTask> tasks = new ArrayList<>();
    private final AtomicInteger running = new AtomicInteger();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final Map<String, Accumulator<?, ?>> accumulators = new HashMap<>();
    private final CompletableFuture<JobExecutionResult> result = new CompletableFuture<>();
    private final Path workingDirectory;
    private volatile JobStatus status = JobStatus.CREATED;
    private volatile boolean cancelRequested;
    private long startNanos;
    private final SimpleMetricGroup metrics;

    /** Every TaskManager in this JVM: the whole job runs here, and the job closes the shuffles when it ends. */
    EmbeddedJob(JobGraph job, Configuration configuration, List<ShuffleEnvironment> taskManagers,
            StateBackend stateBackend) {
        this(job, configuration, taskManagers.stream().map(t -> t.location(0)).toList(), indexed(taskManagers), true,
                stateBackend);
    }

    /**
     * Only the subtasks of {@code localTaskManagers} run here; the other TaskManagers run the rest of the same
     * job graph in other processes, and records cross over their shuffles. The caller owns the shuffles.
     */
    EmbeddedJob(JobGraph job, Configuration configuration, List<TaskLocation> taskManagers,
            Map<Integer, ShuffleEnvironment> localTaskManagers, StateBackend stateBackend) {
        this(job, configuration, taskManagers, localTaskManagers, false, stateBackend);
    }

    private EmbeddedJob(JobGraph job, Configuration configuration, List<TaskLocation> taskManagers,
            Map<Integer, ShuffleEnvironment> localTaskManagers, boolean ownsShuffles, StateBackend stateBackend) {
        this.job = job;
        this.configuration = configuration;
        this.taskManagers = List.copyOf(taskManagers);
        this.localTaskManagers = Map.copyOf(localTaskManagers);
        this.ownsShuffles = ownsShuffles;
        this.stateBackend = stateBackend;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "runnel-timers-" + job.getJobName());
            t.setDaemon(true);
            return t;
        });
        this.metrics = new SimpleMetricGroup(job.getJobName());
        String tmp = configuration.get(EmbeddedRuntime.TMP_DIRS).split(",")[0].trim();
        this.workingDirectory = Path.of(tmp, "runnel-" + jobId);
    }

    void start() {
        startNanos = System.nanoTime();
        try {
            Files.createDirectories(workingDirectory);
            Map<Integer, TaskServices> services = new HashMap<>();
            localTaskManagers.forEach((index, shuffle) -> services.put(index, new TaskServices(shuffle, scheduler,
                    stateBackend, configuration, List.of(workingDirectory.toFile()), metrics, coordinators::get)));
            int n = taskManagers.size();
            Map<String, Integer> slotOffsets = slotOffsets(job);
            // As Flink's slot sharing: subtask i of every vertex of a group shares the group's slot i; the
            // groups' slots follow each other, and slot s runs on TaskManager s mod n.
            ShuffleDeployment.Placement placement =
                    (v, i) -> taskManagers.get((slotOffsets.get(v.getSlotSharingGroup()) + i) % n);
            for (JobVertex vertex : job.getVertices()) {
                List<byte[]> operators = new ArrayList<>();
                for (ChainedOperator op : vertex.getOperators()) {
                    operators.add(InstantiationUtil.serialize(op.getOperator(), "operator '" + op.getName() + "'"));
                }
                startCoordinator(vertex);
                for (int subtask = 0; subtask < vertex.getParallelism(); subtask++) {
                    int taskManager = (slotOffsets.get(vertex.getSlotSharingGroup()) + subtask) % n;
                    if (services.containsKey(taskManager)) {
                        tasks.add(new StreamTask(TaskDeployment.of(job, vertex, subtask, 0, operators, placement),
                                services.get(taskManager), null, this));
                    }
                }
            }
            coordinators.values().forEach(SourceCoordinator::start);
            status = JobStatus.RUNNING;
            running.set(tasks.size());
            LOG.info("Job '{}' ({}) starts {} tasks", job.getJobName(), jobId, tasks.size());
            tasks.forEach(StreamTask::start);
        } catch (RuntimeException | IOException e) {
            failure.compareAndSet(null, e);
            finishJob();
        }
    }

    private static Map<Integer, ShuffleEnvironment> indexed(List<ShuffleEnvironment> shuffles) {
        Map<Integer, ShuffleEnvironment> byIndex = new HashMap<>();
        for (int i = 0; i < shuffles.size(); i++) {
            byIndex.put(i, shuffles.get(i));
        }
        return byIndex;
    }

    /** The first slot of each slot sharing group: the groups, in order of appearance, take as many slots as
     *  their widest vertex has subtasks. */
    private static Map<String, Integer> slotOffsets(JobGraph job) {
        Map<String, Integer> width = new java.util.LinkedHashMap<>();
        for (JobVertex vertex : job.getVertices()) {
            width.merge(vertex.getSlotSharingGroup(), vertex.getParallelism(), Math::max);
        }
        Map<String, Integer> offsets = new HashMap<>();
        int next = 0;
        for (Map.Entry<String, Integer> group : width.entrySet()) {
            offsets.put(group.getKey(), next);
            next += group.getValue();
        }
        return offsets;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void startCoordinator(JobVertex vertex) {
        ChainedOperator head = vertex.getHead();
        if (head.getOperator() instanceof SourceOperator<?, ?> source) {
            java.util.function.Consumer<Throwable> onFailure = this::fail;
            coordinators.put(head.getConfig().operatorId(), new SourceCoordinator(head.getName(), source.getSource(),
                    vertex.getParallelism(), onFailure));
        }
    }

    @Override
    public void onFinished(StreamTask task, Map<String, Accumulator<?, ?>> taskAccumulators) {
        synchronized (accumulators) {
            mergeAccumulators(taskAccumulators);
        }
        taskEnded();
    }

    @Override
    public void onFailed(StreamTask task, Throwable cause) {
        if (cause instanceof TaskCancellationTimeoutException stuck) {
            // A task that ignored its cancellation: the job's own failure stays first, and shows this one.
            LOG.error("Job '{}' ({}): {}", job.getJobName(), jobId, stuck.getMessage());
            Throwable first = failure.get();
            if (first != null) {
                first.addSuppressed(stuck);
            }
        }
        if (!(cause instanceof TaskCancelledException) || failure.get() == null) {
            fail(cause);
        }
        taskEnded();
    }

    private void fail(Throwable cause) {
        if (failure.compareAndSet(null, cause)) {
            if (!(cause instanceof TaskCancelledException)) {
                LOG.warn("Job '{}' ({}) failed: {}", job.getJobName(), jobId, cause.toString());
            }
            tasks.forEach(StreamTask::cancel);
        }
    }

    private void taskEnded() {
        if (running.decrementAndGet() == 0) {
            finishJob();
        }
    }

    private void finishJob() {
        long runtimeMillis = (System.nanoTime() - startNanos) / 1_000_000;
        coordinators.values().forEach(SourceCoordinator::close);
        scheduler.shutdownNow();
        if (ownsShuffles) {
            localTaskManagers.values().forEach(ShuffleEnvironment::close);
        }
        deleteWorkingDirectory();
        Throwable cause = failure.get();
        if (cause == null) {
            status = JobStatus.FINISHED;
            Map<String, Object> values = new HashMap<>();
            accumulators.forEach((name, acc) -> values.put(name, acc.getLocalValue()));
            result.complete(new JobExecutionResult(jobId, runtimeMillis, values));
        } else {
            status = cancelRequested ? JobStatus.CANCELED : JobStatus.FAILED;
            String what = cancelRequested ? "was cancelled" : "failed";
            result.completeExceptionally(new JobExecutionException(jobId,
                    "Job '" + job.getJobName() + "' (" + jobId + ") " + what + ": " + cause.getMessage(), cause));
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void mergeAccumulators(Map<String, Accumulator<?, ?>> taskAccumulators) {
        for (Map.Entry<String, Accumulator<?, ?>> entry : taskAccumulators.entrySet()) {
            Accumulator existing = accumulators.get(entry.getKey());
            if (existing == null) {
                accumulators.put(entry.getKey(), entry.getValue().clone());
            } else if (existing.getClass() != entry.getValue().getClass()) {
                fail(new IllegalStateException("Accumulator '" + entry.getKey() + "' has type "
                        + existing.getClass().getName() + " in one subtask and " + entry.getValue().getClass().getName()
                        + " in another"));
            } else {
                existing.merge((Accumulator) entry.getValue());
            }
        }
    }

    private void deleteWorkingDirectory() {
        if (!Files.exists(workingDirectory)) {
            return;
        }
        try (Stream<Path> files = Files.walk(workingDirectory)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            LOG.warn("Could not delete the job's working directory {}: {}", workingDirectory, e.toString());
        }
    }

    /** The job's metrics: one group per task ({@code <job>.<vertex>.<subtask>.<metric>}). */
    MetricGroup metrics() {
        return metrics;
    }

    @Override
    public JobID getJobID() {
        return jobId;
    }

    @Override
    public CompletableFuture<JobStatus> getJobStatus() {
        return CompletableFuture.completedFuture(status);
    }

    @Override
    public CompletableFuture<Void> cancel() {
        cancelRequested = true;
        fail(new TaskCancelledException("Job '" + job.getJobName() + "' was cancelled by the user"));
        return result.handle((r, t) -> null);
    }

    @Override
    public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
        return result;
    }
}
