package dev.runnel.runtime.taskexecutor;

import dev.runnel.api.common.JobID;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.configuration.Configuration;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.metrics.Gauge;
import dev.runnel.metrics.Metric;
import dev.runnel.metrics.SimpleMetricGroup;
import dev.runnel.streaming.runtime.tasks.CheckpointMetrics;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.cluster.ControlMessages.AcknowledgeCheckpoint;
import dev.runnel.runtime.cluster.ControlMessages.AnnounceCheckpoint;
import dev.runnel.runtime.cluster.ControlMessages.AssignSplits;
import dev.runnel.runtime.cluster.ControlMessages.AttemptOpenFailed;
import dev.runnel.runtime.cluster.ControlMessages.AttemptOpened;
import dev.runnel.runtime.cluster.ControlMessages.CancelTask;
import dev.runnel.runtime.cluster.ControlMessages.CloseAttempt;
import dev.runnel.runtime.cluster.ControlMessages.DeclineCheckpoint;
import dev.runnel.runtime.cluster.ControlMessages.DeployTask;
import dev.runnel.runtime.cluster.ControlMessages.NoMoreSplits;
import dev.runnel.runtime.cluster.ControlMessages.NotifyCheckpoint;
import dev.runnel.runtime.cluster.ControlMessages.OpenAttempt;
import dev.runnel.runtime.cluster.ControlMessages.RegisterReader;
import dev.runnel.runtime.cluster.ControlMessages.ReleaseAfterEnd;
import dev.runnel.runtime.cluster.ControlMessages.ReleaseJob;
import dev.runnel.runtime.cluster.ControlMessages.RequestSplit;
import dev.runnel.runtime.cluster.ControlMessages.SerializedError;
import dev.runnel.runtime.cluster.ControlMessages.StartTask;
import dev.runnel.runtime.cluster.ControlMessages.TaskEndOfInput;
import dev.runnel.runtime.cluster.ControlMessages.TaskFailed;
import dev.runnel.runtime.cluster.ControlMessages.TaskFinished;
import dev.runnel.runtime.cluster.ControlMessages.TaskKey;
import dev.runnel.runtime.cluster.ControlMessages.TaskRunning;
import dev.runnel.runtime.cluster.ControlMessages.TriggerCheckpoint;
import dev.runnel.runtime.cluster.SourceSplits;
import dev.runnel.runtime.jobgraph.ChainedOperator;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.minicluster.EmbeddedRuntime;
import dev.runnel.runtime.network.netty.RpcService;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.runtime.source.SourceCoordinatorGateway;
import dev.runnel.streaming.runtime.source.SourceReaderGateway;
import dev.runnel.streaming.runtime.tasks.CheckpointResponder;
import dev.runnel.streaming.runtime.tasks.DeployedTask;
import dev.runnel.streaming.runtime.tasks.StreamTask;
import dev.runnel.streaming.runtime.tasks.TaskDeployment;
import dev.runnel.streaming.runtime.tasks.TaskServices;
import dev.runnel.util.InstantiationUtil;
import java.io.File;
import java.io.IOException;
import java.io.Serializable;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a TaskManager does for the JobManager: opens a shuffle per job attempt, deploys and runs tasks with the
 * job's class loader, passes calls on to them, and reports their states, checkpoint acknowledgements and split
 * requests back. Messages arrive on the control plane's event loop and are handled without blocking; tasks run
 * on their own threads. Thread-safe.
 */
final class TaskExecutor {

    private static final Logger LOG = LoggerFactory.getLogger(TaskExecutor.class);

    /** How long a task waits for the JobManager to say where a checkpoint goes, after its barrier arrived. */
    private static final long ANNOUNCEMENT_WAIT_MILLIS = 30_000;

    private final String resourceId;
    private final Configuration configuration;
    private final Path workingDirectory;
    private final ScheduledExecutorService timers;
    private final ExecutorService asyncOperations;
    /** Each task's own metric group ({@code <job>.<vertex>.<subtask>.<metric>}), while it is deployed here. */
    private final Map<TaskKey, TaskMetrics> taskMetrics = new ConcurrentHashMap<>();
    private final Map<JobID, JobSlot> jobs = new ConcurrentHashMap<>();
    private final Map<TaskKey, StreamTask> tasks = new ConcurrentHashMap<>();
    private volatile RpcService.Connection jobManager;

    /** What the TaskManager holds for one job: its code, graph, and the shuffle of each open attempt. */
    private static final class JobSlot {
        final JobID jobId;
        final Path directory;
        URLClassLoader classLoader;
        final Map<Integer, Attempt> attempts = new ConcurrentHashMap<>();

        JobSlot(JobID jobId, Path directory) {
            this.jobId = jobId;
            this.directory = directory;
        }
    }

    /** One attempt of a job on this TaskManager. */
    private static final class Attempt {
        final JobGraph job;
        final Configuration configuration;
        final ShuffleEnvironment shuffle;
        final StateBackend stateBackend;
        final Map<Long, CompletableFuture<CheckpointStreamFactory>> locations = new ConcurrentHashMap<>();
        /** Readers registered here, by operator id and subtask. */
        final Map<String, SourceReaderGateway<SourceSplit>> readers = new ConcurrentHashMap<>();

        final boolean periodicCheckpoints;

        Attempt(JobGraph job, Configuration configuration, ShuffleEnvironment shuffle, StateBackend stateBackend,
                boolean periodicCheckpoints) {
            this.periodicCheckpoints = periodicCheckpoints;
            this.job = job;
            this.configuration = configuration;
            this.shuffle = shuffle;
            this.stateBackend = stateBackend;
        }

        CompletableFuture<CheckpointStreamFactory> location(long checkpointId) {
            return locations.computeIfAbsent(checkpointId, id -> new CompletableFuture<>());
        }
    }

    TaskExecutor(String resourceId, Configuration configuration, Path workingDirectory) {
        this.resourceId = resourceId;
        this.configuration = configuration;
        this.workingDirectory = workingDirectory;
        this.timers = Executors.newSingleThreadScheduledExecutor(daemon("runnel-timers-" + resourceId));
        this.asyncOperations = Executors.newCachedThreadPool(daemon("runnel-async-snapshots-" + resourceId));

    }

    void connectedTo(RpcService.Connection connection) {
        this.jobManager = connection;
    }

    /** One deployed task's metrics and the names Prometheus labels them with. */
    private record TaskMetrics(String jobName, String vertexName, int subtask, SimpleMetricGroup group) {
        /** {@code <job id>.<vertex>.<subtask>.}: what precedes a metric's own name. */
        String prefix() {
            return group.getScope() + "." + vertexName + "." + subtask + ".";
        }
    }

    /**
     * Numeric metrics of the deployed tasks, for the heartbeat: {@code <job id>.<vertex>.<subtask>.<name>} →
     * value (by job id, so that two jobs of one name stay apart).
     */
    Map<String, Double> metricSnapshot() {
        Map<String, Double> values = new HashMap<>();
        for (TaskMetrics task : taskMetrics.values()) {
            for (Map.Entry<String, Metric> entry : task.group().getAllMetrics().entrySet()) {
                Double value = numeric(entry.getValue());
                if (value != null) {
                    values.put(entry.getKey(), value);
                }
            }
        }
        return values;
    }

    /** The deployed tasks' metrics in Prometheus' text format, labelled with job, task and subtask. */
    String prometheusText() {
        dev.runnel.runtime.rest.prometheus.PrometheusText text = new dev.runnel.runtime.rest.prometheus.PrometheusText();
        text.gauge("runnel_taskmanager_numberOfDeployedTasks", Map.of("tm_id", resourceId), taskMetrics.size());
        for (TaskMetrics task : taskMetrics.values()) {
            Map<String, String> labels = new java.util.LinkedHashMap<>();
            labels.put("tm_id", resourceId);
            labels.put("job_name", task.jobName());
            labels.put("task_name", task.vertexName());
            labels.put("subtask_index", Integer.toString(task.subtask()));
            String prefix = task.prefix();
            for (Map.Entry<String, Metric> entry : task.group().getAllMetrics().entrySet()) {
                Double value = numeric(entry.getValue());
                if (value != null && entry.getKey().startsWith(prefix)) {
                    text.gauge("runnel_taskmanager_job_task_" + entry.getKey().substring(prefix.length()), labels, value);
                }
            }
        }
        return text.toString();
    }

    private static Double numeric(Metric metric) {
        Object value = metric instanceof dev.runnel.metrics.Counter counter ? counter.getCount()
                : metric instanceof Gauge<?> gauge ? gauge.getValue() : null;
        return value instanceof Number number ? number.doubleValue() : null;
    }

    /** The JobManager's connection closed: every task stops, every job's files go. */
    void jobManagerLost() {
        tasks.values().forEach(StreamTask::cancel);
        for (JobID job : List.copyOf(jobs.keySet())) {
            release(job);
        }
    }

    void onMessage(Serializable message) {
        try {
            dispatch(message);
        } catch (RuntimeException e) {
            LOG.error("TaskManager {}: handling {} failed", resourceId, message.getClass().getSimpleName(), e);
            if (message instanceof DeployTask deploy) {
                send(new TaskFailed(deploy.task(), SerializedError.of(e)));
            }
        }
    }

    private void dispatch(Serializable message) {
        if (message instanceof OpenAttempt open) {
            openAttempt(open);
        } else if (message instanceof DeployTask deploy) {
            deploy(deploy);
        } else if (message instanceof StartTask start) {
            StreamTask task = tasks.get(start.task());
            if (task != null) {
                task.start();
                send(new TaskRunning(start.task()));
            }
        } else if (message instanceof CancelTask cancel) {
            StreamTask task = tasks.get(cancel.task());
            if (task != null) {
                task.cancel();
            }
        } else if (message instanceof TriggerCheckpoint trigger) {
            StreamTask task = tasks.get(trigger.task());
            if (task != null) {
                task.triggerCheckpointAsync(trigger.checkpointId(), trigger.timestamp(), trigger.options(),
                        trigger.stop(), trigger.drain());
            }
        } else if (message instanceof NotifyCheckpoint notify) {
            StreamTask task = tasks.get(notify.task());
            if (task != null) {
                if (notify.complete()) {
                    task.notifyCheckpointCompleteAsync(notify.checkpointId());
                } else {
                    task.notifyCheckpointAbortedAsync(notify.checkpointId());
                }
            }
        } else if (message instanceof ReleaseAfterEnd release) {
            StreamTask task = tasks.get(release.task());
            if (task != null) {
                task.releaseAfterEndAsync();
            }
        } else if (message instanceof AnnounceCheckpoint announce) {
            Attempt attempt = attempt(announce.jobId(), announce.attempt());
            if (attempt != null) {
                attempt.location(announce.checkpointId()).complete(announce.location());
                // Forget locations of checkpoints long gone; a task asks only for the newest few.
                attempt.locations.keySet().removeIf(id -> id < announce.checkpointId() - 64);
            }
        } else if (message instanceof AssignSplits assign) {
            assignSplits(assign);
        } else if (message instanceof NoMoreSplits none) {
            Attempt attempt = attempt(none.task().jobId(), none.task().attempt());
            SourceReaderGateway<SourceSplit> reader = attempt == null ? null
                    : attempt.readers.get(none.operatorId() + "#" + none.task().subtask());
            if (reader != null) {
                reader.signalNoMoreSplits();
            }
        } else if (message instanceof CloseAttempt close) {
            closeAttempt(close.jobId(), close.attempt());
        } else if (message instanceof ReleaseJob release) {
            release(release.jobId());
        } else {
            LOG.warn("TaskManager {}: unexpected control message {}", resourceId, message.getClass().getName());
        }
    }

    private void openAttempt(OpenAttempt open) {
        try {
            JobSlot job = jobs.computeIfAbsent(open.jobId(), id -> new JobSlot(id, workingDirectory.resolve("job-" + id)));
            if (open.jars() != null) {
                Files.createDirectories(job.directory);
                List<URL> urls = new ArrayList<>();
                for (int i = 0; i < open.jars().size(); i++) {
                    Path jar = job.directory.resolve("user-" + i + ".jar");
                    Files.write(jar, open.jars().get(i));
                    urls.add(jar.toUri().toURL());
                }
                job.classLoader = new URLClassLoader("job-" + open.jobId(), urls.toArray(new URL[0]),
                        TaskExecutor.class.getClassLoader());
            }
            if (job.classLoader == null) {
                throw new IllegalStateException("TaskManager " + resourceId + " has no code of job " + open.jobId());
            }
            JobGraph graph = InstantiationUtil.deserialize(open.jobGraph(), job.classLoader,
                    "job graph of '" + open.jobName() + "'");
            Configuration jobConfiguration = jobConfiguration(open.configuration());
            Configuration shuffleConfiguration = configuration.copy();
            shuffleConfiguration.setString("taskmanager.resource-id", resourceId + "-" + open.jobId().toHexString()
                    .substring(0, 8) + "-" + open.attempt());
            ShuffleEnvironment shuffle = EmbeddedRuntime.shuffle(shuffleConfiguration, "netty");
            StateBackend backend = EmbeddedRuntime.stateBackend(graph, jobConfiguration);
            Attempt previous = job.attempts.put(open.attempt(), new Attempt(graph, jobConfiguration, shuffle, backend,
                    open.periodicCheckpoints()));
            if (previous != null) {
                previous.shuffle.close();
            }
            send(new AttemptOpened(open.jobId(), open.attempt(), shuffle.location(0)));
        } catch (Exception | LinkageError e) {
            LOG.error("TaskManager {} cannot open attempt {} of job '{}' ({})", resourceId, open.attempt(),
                    open.jobName(), open.jobId(), e);
            send(new AttemptOpenFailed(open.jobId(), open.attempt(), SerializedError.of(e)));
        }
    }

    /** The job's configuration, with this TaskManager's own settings (directories, network, secret) on top. */
    private Configuration jobConfiguration(Map<String, String> jobSettings) {
        Configuration merged = new Configuration();
        jobSettings.forEach(merged::setString);
        configuration.toMap().forEach((key, value) -> {
            if (!jobSettings.containsKey(key) || key.startsWith("taskmanager.") || key.startsWith("security.")
                    || key.equals(EmbeddedRuntime.TMP_DIRS.key())) {
                merged.setString(key, value);
            }
        });
        return merged;
    }

    private void deploy(DeployTask deploy) {
        TaskKey key = deploy.task();
        JobSlot job = jobs.get(key.jobId());
        Attempt attempt = attempt(key.jobId(), key.attempt());
        if (job == null || attempt == null) {
            throw new IllegalStateException("Task " + key + " is deployed to TaskManager " + resourceId
                    + ", which has not opened its attempt");
        }
        JobVertex vertex = attempt.job.getVertices().stream().filter(v -> v.getId().equals(key.vertexId())).findFirst()
                .orElseThrow(() -> new IllegalStateException("Job " + key.jobId() + " has no vertex " + key.vertexId()));
        List<byte[]> operators = new ArrayList<>();
        for (ChainedOperator op : vertex.getOperators()) {
            operators.add(InstantiationUtil.serialize(op.getOperator(), "operator '" + op.getName() + "'"));
        }
        Path directory = job.directory.resolve("attempt-" + key.attempt());
        SimpleMetricGroup taskGroup = new SimpleMetricGroup(key.jobId().toHexString());
        taskMetrics.put(key, new TaskMetrics(attempt.job.getJobName(), vertex.getName(), key.subtask(), taskGroup));
        TaskServices services = new TaskServices(attempt.shuffle, timers, attempt.stateBackend, attempt.configuration,
                List.of(directory.toFile()), taskGroup, new Coordinators(key, attempt),
                new Responder(key, attempt), asyncOperations, job.classLoader);
        StreamTask task = new StreamTask(TaskDeployment.of(attempt.job, vertex, key.subtask(), key.attempt(), operators,
                deploy.placement()), services, deploy.restore(), new Listener(key));
        tasks.put(key, task);
    }

    private void assignSplits(AssignSplits assign) {
        Attempt attempt = attempt(assign.task().jobId(), assign.task().attempt());
        SourceReaderGateway<SourceSplit> reader = attempt == null ? null
                : attempt.readers.get(assign.operatorId() + "#" + assign.task().subtask());
        if (reader == null) {
            LOG.warn("TaskManager {}: splits for reader {} of operator {}, which is not here", resourceId,
                    assign.task(), assign.operatorId());
            return;
        }
        SimpleVersionedSerializer<SourceSplit> serializer = SourceSplits.serializer(attempt.job, assign.operatorId());
        List<SourceSplit> splits = new ArrayList<>(assign.splits().size());
        try {
            for (byte[] bytes : assign.splits()) {
                splits.add(serializer.deserialize(assign.serializerVersion(), bytes));
            }
        } catch (IOException e) {
            throw new IllegalStateException("Splits for " + assign.task() + " cannot be read: " + e.getMessage(), e);
        }
        reader.assignSplits(splits);
    }

    private void closeAttempt(JobID jobId, int number) {
        tasks.keySet().removeIf(key -> key.jobId().equals(jobId) && key.attempt() == number);
        taskMetrics.keySet().removeIf(key -> key.jobId().equals(jobId) && key.attempt() == number);
        JobSlot job = jobs.get(jobId);
        Attempt attempt = job == null ? null : job.attempts.remove(number);
        if (attempt != null) {
            attempt.shuffle.close();
            attempt.locations.values().forEach(f -> f.completeExceptionally(
                    new IOException("Attempt " + number + " of job " + jobId + " ended")));
            deleteRecursively(job.directory.resolve("attempt-" + number));
        }
    }

    private void release(JobID jobId) {
        JobSlot job = jobs.remove(jobId);
        if (job == null) {
            return;
        }
        tasks.forEach((key, task) -> {
            if (key.jobId().equals(jobId)) {
                task.cancel();
            }
        });
        tasks.keySet().removeIf(key -> key.jobId().equals(jobId));
        taskMetrics.keySet().removeIf(key -> key.jobId().equals(jobId));
        job.attempts.values().forEach(a -> a.shuffle.close());
        job.attempts.clear();
        if (job.classLoader != null) {
            try {
                job.classLoader.close();
            } catch (IOException e) {
                LOG.debug("Closing the class loader of job {}: {}", jobId, e.toString());
            }
        }
        deleteRecursively(job.directory);
    }

    void close() {
        jobManagerLost();
        timers.shutdownNow();
        asyncOperations.shutdownNow();
    }

    private Attempt attempt(JobID jobId, int number) {
        JobSlot job = jobs.get(jobId);
        return job == null ? null : job.attempts.get(number);
    }

    private void send(Serializable message) {
        RpcService.Connection connection = jobManager;
        if (connection != null) {
            connection.send(message);
        }
    }

    private static void deleteRecursively(Path path) {
        if (!Files.exists(path)) {
            return;
        }
        try (Stream<Path> files = Files.walk(path)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException e) {
            LOG.warn("Could not delete {}: {}", path, e.toString());
        }
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    // ------------------------------------------------------------------ a task's ways back to the JobManager

    /** Reports a task's state changes. */
    private final class Listener implements StreamTask.TaskListener {
        private final TaskKey key;

        Listener(TaskKey key) {
            this.key = key;
        }

        @Override
        public void onFinished(DeployedTask task, Map<String, Accumulator<?, ?>> accumulators) {
            send(new TaskFinished(key, InstantiationUtil.serialize(new HashMap<>(accumulators),
                    "accumulators of " + task.describe())));
        }

        @Override
        public void onFailed(DeployedTask task, Throwable cause) {
            send(new TaskFailed(key, SerializedError.of(cause)));
        }

        @Override
        public void onEndOfInput(DeployedTask task) {
            send(new TaskEndOfInput(key));
        }
    }

    /** Checkpoint acknowledgements to the JobManager's coordinator; locations as the JobManager announced them. */
    private final class Responder implements CheckpointResponder {
        private final TaskKey key;
        private final Attempt attempt;

        Responder(TaskKey key, Attempt attempt) {
            this.key = key;
            this.attempt = attempt;
        }

        @Override
        public boolean isPeriodicCheckpointingEnabled() {
            return attempt.periodicCheckpoints;
        }

        @Override
        public CheckpointStreamFactory streamFactory(long checkpointId) throws IOException {
            try {
                return attempt.location(checkpointId).get(ANNOUNCEMENT_WAIT_MILLIS, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("Interrupted while waiting to learn where checkpoint " + checkpointId + " goes");
            } catch (Exception e) {
                throw new IOException("The JobManager did not say where checkpoint " + checkpointId + " goes within "
                        + ANNOUNCEMENT_WAIT_MILLIS + " ms: " + e, e);
            }
        }

        @Override
        public void acknowledgeCheckpoint(String vertexId, int subtask, long checkpointId,
                Map<String, OperatorSubtaskState> operatorStates, CheckpointMetrics checkpointMetrics) {
            send(new AcknowledgeCheckpoint(key, checkpointId, new HashMap<>(operatorStates), checkpointMetrics));
        }

        @Override
        public void declineCheckpoint(String vertexId, int subtask, long checkpointId, Throwable cause) {
            send(new DeclineCheckpoint(key, checkpointId, SerializedError.of(cause)));
        }
    }

    /** A source reader's coordinator, which runs on the JobManager. */
    private final class Coordinators implements dev.runnel.streaming.runtime.source.SourceCoordinatorProvider {
        private final TaskKey key;
        private final Attempt attempt;

        Coordinators(TaskKey key, Attempt attempt) {
            this.key = key;
            this.attempt = attempt;
        }

        @Override
        public SourceCoordinatorGateway coordinatorFor(String operatorId) {
            return new SourceCoordinatorGateway() {
                @Override
                @SuppressWarnings("unchecked")
                public void registerReader(int subtask, SourceReaderGateway<?> gateway) {
                    attempt.readers.put(operatorId + "#" + subtask, (SourceReaderGateway<SourceSplit>) gateway);
                    send(new RegisterReader(key, operatorId));
                }

                @Override
                public void requestSplit(int subtask) {
                    send(new RequestSplit(key, operatorId));
                }
            };
        }
    }
}
