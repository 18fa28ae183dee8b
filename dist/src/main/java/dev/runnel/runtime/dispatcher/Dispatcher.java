package dev.runnel.runtime.dispatcher;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.JobID;
import dev.runnel.api.common.JobStatus;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.JobManagerOptions;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.checkpoint.CheckpointCoordinator;
import dev.runnel.runtime.checkpoint.CheckpointStats;
import dev.runnel.runtime.cluster.ControlMessages.Heartbeat;
import dev.runnel.runtime.cluster.ControlMessages.JobScoped;
import dev.runnel.runtime.cluster.ControlMessages.RegisterTaskManager;
import dev.runnel.runtime.cluster.ControlMessages.RegistrationAccepted;
import dev.runnel.runtime.cluster.ControlMessages.RegistrationRefused;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.minicluster.EmbeddedJob;
import dev.runnel.runtime.minicluster.EmbeddedRuntime;
import dev.runnel.runtime.network.netty.RpcService;
import dev.runnel.util.InstantiationUtil;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Serializable;
import java.io.StringWriter;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobManager's core: it accepts jobs, runs each one's master ({@link EmbeddedJob} over
 * {@link RemoteTaskExecutors}: scheduling onto the TaskManagers' slots, checkpoints, restarts), keeps the
 * TaskManagers' registry, and answers the REST API ({@link DispatcherGateway}). Control messages from
 * TaskManagers arrive through {@link #handler()}. Thread-safe.
 */
public final class Dispatcher implements DispatcherGateway {

    private static final Logger LOG = LoggerFactory.getLogger(Dispatcher.class);

    private final Configuration configuration;
    private final TaskManagerRegistry registry = new TaskManagerRegistry();
    private final Map<JobID, RunningJob> jobs = new ConcurrentHashMap<>();
    private final long heartbeatIntervalMillis;
    private final String version;

    /** One submitted job and what the REST API shows of it. */
    private static final class RunningJob {
        final JobID jobId;
        final JobGraph graph;
        final EmbeddedJob master;
        final RemoteTaskExecutors executors;
        final URLClassLoader classLoader;
        final long startTime = System.currentTimeMillis();
        volatile long endTime = -1;
        final List<ExceptionInfo> exceptions = new CopyOnWriteArrayList<>();
        /** The job's task metrics as the TaskManagers' heartbeats last reported them (kept after the job ends). */
        final Map<String, Double> lastMetrics = new ConcurrentHashMap<>();

        RunningJob(JobID jobId, JobGraph graph, EmbeddedJob master, RemoteTaskExecutors executors,
                URLClassLoader classLoader) {
            this.jobId = jobId;
            this.graph = graph;
            this.master = master;
            this.executors = executors;
            this.classLoader = classLoader;
        }

        JobStatus status() {
            return master.getJobStatus().join();
        }
    }

    public Dispatcher(Configuration configuration, long heartbeatIntervalMillis) {
        this.configuration = configuration;
        this.heartbeatIntervalMillis = heartbeatIntervalMillis;
        Package own = Dispatcher.class.getPackage();
        this.version = own.getImplementationVersion() == null ? "dev" : own.getImplementationVersion();
        registry.onLoss((tm, reason) -> jobs.values().forEach(job -> job.executors.onTaskManagerLost(tm, reason)));
    }

    public TaskManagerRegistry registry() {
        return registry;
    }

    /** What the JobManager's control server does with the messages of its TaskManagers. */
    public RpcService.Handler handler() {
        return new RpcService.Handler() {
            @Override
            public void onMessage(RpcService.Connection connection, Serializable message) {
                if (message instanceof RegisterTaskManager register) {
                    if (register.slots() < 1) {
                        connection.send(new RegistrationRefused("a TaskManager needs at least one slot ("
                                + "taskmanager.numberOfTaskSlots is " + register.slots() + ")"));
                        return;
                    }
                    registry.register(register, connection);
                    connection.send(new RegistrationAccepted("jobmanager", heartbeatIntervalMillis));
                    return;
                }
                if (message instanceof Heartbeat heartbeat) {
                    registry.heartbeat(heartbeat, connection);
                    remember(heartbeat.metrics());
                    return;
                }
                TaskManagerRegistry.Registered from = registry.byConnection(connection);
                if (from == null) {
                    LOG.warn("Control message {} from {}, which is not a registered TaskManager; dropped",
                            message.getClass().getSimpleName(), connection);
                    return;
                }
                RunningJob job = message instanceof JobScoped scoped ? jobs.get(scoped.jobId()) : null;
                if (job != null) {
                    job.executors.onMessage(from, message);
                }
            }

            @Override
            public void onDisconnected(RpcService.Connection connection, Throwable cause) {
                registry.disconnected(connection, cause);
            }
        };
    }

    /** Keeps each job's part of a heartbeat's metrics (keys start with the job's id). */
    private void remember(Map<String, Double> metrics) {
        for (Map.Entry<String, Double> metric : metrics.entrySet()) {
            int dot = metric.getKey().indexOf('.');
            if (dot == 32) {
                RunningJob job = jobs.get(JobID.fromHexString(metric.getKey().substring(0, dot)));
                if (job != null) {
                    job.lastMetrics.put(metric.getKey(), metric.getValue());
                }
            }
        }
    }

    // ------------------------------------------------------------------ submission

    @Override
    public CompletableFuture<JobID> submit(byte[] jobGraph, List<Path> jars) {
        try {
            List<URL> urls = new ArrayList<>();
            List<byte[]> jarBytes = new ArrayList<>();
            for (Path jar : jars) {
                urls.add(jar.toUri().toURL());
                jarBytes.add(Files.readAllBytes(jar));
            }
            URLClassLoader loader = new URLClassLoader("job", urls.toArray(new URL[0]), Dispatcher.class.getClassLoader());
            JobGraph graph;
            try {
                graph = InstantiationUtil.deserialize(jobGraph, loader, "submitted job graph");
            } catch (RuntimeException e) {
                loader.close();
                throw new IllegalArgumentException("The submitted job graph cannot be read with the submitted jars "
                        + jars + ": " + e.getMessage(), e);
            }
            JobID jobId = JobID.generate();
            Configuration effective = graph.getConfiguration().copy();
            configuration.toMap().forEach((key, value) -> {
                if (!effective.toMap().containsKey(key)) {
                    effective.setString(key, value);
                }
            });
            Duration slotTimeout = effective.get(JobManagerOptions.SLOT_REQUEST_TIMEOUT);
            RemoteTaskExecutors executors = new RemoteTaskExecutors(jobId, graph.getJobName(), () -> graph, jarBytes,
                    effective.toMap(), loader, registry, slotTimeout.toMillis(), 60_000);
            EmbeddedJob master = withLoader(loader, () -> new EmbeddedJob(jobId, graph, effective, executors,
                    EmbeddedRuntime.stateBackend(graph, effective)));
            RunningJob job = new RunningJob(jobId, graph, master, executors, loader);
            jobs.put(jobId, job);
            LOG.info("Job '{}' ({}) submitted: {} vertices, {} subtasks", graph.getJobName(), jobId,
                    graph.getVertices().size(), graph.getTotalSubtasks());
            master.getJobExecutionResult().whenComplete((result, failure) -> ended(job, failure));
            // Starting waits for slots: not on the REST thread.
            Thread starter = new Thread(() -> withLoader(loader, () -> {
                master.start();
                return null;
            }), "runnel-start-" + jobId);
            starter.setDaemon(true);
            starter.start();
            return CompletableFuture.completedFuture(jobId);
        } catch (IOException e) {
            return CompletableFuture.failedFuture(new IllegalArgumentException("The submitted jars cannot be read: "
                    + e.getMessage(), e));
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    private static <T> T withLoader(ClassLoader loader, java.util.function.Supplier<T> action) {
        Thread thread = Thread.currentThread();
        ClassLoader previous = thread.getContextClassLoader();
        thread.setContextClassLoader(loader);
        try {
            return action.get();
        } finally {
            thread.setContextClassLoader(previous);
        }
    }

    private void ended(RunningJob job, Throwable failure) {
        job.endTime = System.currentTimeMillis();
        if (failure != null) {
            job.exceptions.add(0, info(failure, job.endTime, List.of()));
        }
        LOG.info("Job '{}' ({}) ended {}", job.graph.getJobName(), job.jobId, job.status());
    }

    private static ExceptionInfo info(Throwable failure, long timestamp, List<Throwable> concurrent) {
        StringWriter stack = new StringWriter();
        failure.printStackTrace(new PrintWriter(stack));
        Throwable root = failure;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        List<ExceptionInfo> others = new ArrayList<>(concurrent.size());
        for (Throwable other : concurrent) {
            others.add(info(other, timestamp, List.of()));
        }
        return new ExceptionInfo(root.getClass().getName() + ": " + root.getMessage(), stack.toString(), timestamp,
                null, null, others);
    }

    // ------------------------------------------------------------------ views

    @Override
    public ClusterOverview overview() {
        int running = 0;
        int finished = 0;
        int cancelled = 0;
        int failed = 0;
        for (RunningJob job : jobs.values()) {
            switch (job.status()) {
                case FINISHED -> finished++;
                case CANCELED -> cancelled++;
                case FAILED -> failed++;
                default -> running++;
            }
        }
        return new ClusterOverview(registry.taskManagers().size(), registry.totalSlots(), registry.freeSlots(), running,
                finished, cancelled, failed, version, "");
    }

    @Override
    public List<TaskManagerInfo> taskManagers() {
        List<TaskManagerInfo> infos = new ArrayList<>();
        for (TaskManagerRegistry.Registered tm : registry.taskManagers()) {
            infos.add(new TaskManagerInfo(tm.id(), tm.info().host(), 0, tm.lastHeartbeat(), tm.info().slots(),
                    registry.freeSlots(tm), tm.info().memoryBytes(), tm.info().cpuCores()));
        }
        return infos;
    }

    @Override
    public List<JobOverview> jobs() {
        return jobs.values().stream().sorted((a, b) -> Long.compare(b.startTime, a.startTime)).map(this::overviewOf)
                .toList();
    }

    private JobOverview overviewOf(RunningJob job) {
        Map<String, Integer> counts = new LinkedHashMap<>();
        job.executors.subtaskStates().values().forEach(states -> states.forEach(s -> counts.merge(s, 1, Integer::sum)));
        return new JobOverview(job.jobId, job.graph.getJobName(), job.status().name(), job.startTime, job.endTime,
                job.endTime > 0 ? job.endTime : System.currentTimeMillis(), counts);
    }

    @Override
    public Optional<JobDetails> job(JobID jobId) {
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            return Optional.empty();
        }
        Map<String, List<String>> states = job.executors.subtaskStates();
        Map<String, Double> metrics = job.lastMetrics;
        List<VertexDetails> vertices = new ArrayList<>();
        List<EdgeDetails> edges = new ArrayList<>();
        for (JobVertex vertex : job.graph.getVertices()) {
            List<String> subtaskStates = states.getOrDefault(vertex.getId(), List.of());
            String prefix = jobId.toHexString() + "." + vertex.getName() + ".";
            double backPressured = maxOver(metrics, prefix, "backPressuredTimeMsPerSecond") / 1000.0;
            double idle = maxOver(metrics, prefix, "idleTimeMsPerSecond") / 1000.0;
            vertices.add(new VertexDetails(vertex.getId(), vertex.getName(), vertex.getParallelism(),
                    vertex.getMaxParallelism(), aggregate(subtaskStates, job.status()),
                    vertex.getOperators().stream().map(op -> op.getName()).toList(), subtaskStates,
                    (long) sumOver(metrics, prefix, "numRecordsIn"), (long) sumOver(metrics, prefix, "numRecordsOut"),
                    (long) sumOver(metrics, prefix, "numBytesIn"), (long) sumOver(metrics, prefix, "numBytesOut"),
                    sumOver(metrics, prefix, "numRecordsInPerSecond"), sumOver(metrics, prefix, "numRecordsOutPerSecond"),
                    Math.max(0, 1 - idle - backPressured), backPressured));
            for (JobEdge edge : vertex.getOutputs()) {
                edges.add(new EdgeDetails(vertex.getId(), edge.getTarget().getId(), edge.getPartitioner().toString(),
                        edge.getDistributionPattern().name()));
            }
        }
        return Optional.of(new JobDetails(overviewOf(job), vertices, edges, System.currentTimeMillis()));
    }

    private static String aggregate(List<String> subtaskStates, JobStatus jobStatus) {
        if (subtaskStates.isEmpty()) {
            return jobStatus.isGloballyTerminalState() ? jobStatus.name() : "CREATED";
        }
        for (String state : List.of("FAILED", "CANCELING", "CANCELED", "DEPLOYING", "RUNNING")) {
            if (subtaskStates.contains(state)) {
                return state;
            }
        }
        return subtaskStates.get(0);
    }

    private static double sumOver(Map<String, Double> metrics, String prefix, String name) {
        double sum = 0;
        for (Map.Entry<String, Double> entry : metrics.entrySet()) {
            if (entry.getKey().startsWith(prefix) && entry.getKey().endsWith("." + name)) {
                sum += entry.getValue();
            }
        }
        return sum;
    }

    private static double maxOver(Map<String, Double> metrics, String prefix, String name) {
        double max = 0;
        for (Map.Entry<String, Double> entry : metrics.entrySet()) {
            if (entry.getKey().startsWith(prefix) && entry.getKey().endsWith("." + name)) {
                max = Math.max(max, entry.getValue());
            }
        }
        return max;
    }

    @Override
    public Optional<VertexBackPressure> backPressure(JobID jobId, String vertexId) {
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            return Optional.empty();
        }
        JobVertex vertex = job.graph.getVertices().stream().filter(v -> v.getId().equals(vertexId)).findFirst()
                .orElse(null);
        if (vertex == null) {
            return Optional.empty();
        }
        Map<String, Double> metrics = job.lastMetrics;
        List<SubtaskBackPressure> subtasks = new ArrayList<>();
        for (int i = 0; i < vertex.getParallelism(); i++) {
            String prefix = jobId.toHexString() + "." + vertex.getName() + "." + i + ".";
            double backPressured = metrics.getOrDefault(prefix + "backPressuredTimeMsPerSecond", 0.0) / 1000.0;
            double idle = metrics.getOrDefault(prefix + "idleTimeMsPerSecond", 0.0) / 1000.0;
            subtasks.add(new SubtaskBackPressure(i, backPressured, idle, Math.max(0, 1 - idle - backPressured)));
        }
        return Optional.of(new VertexBackPressure(vertexId, System.currentTimeMillis(), subtasks));
    }

    @Override
    public Optional<CheckpointingStatistics> checkpoints(JobID jobId) {
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            return Optional.empty();
        }
        CheckpointCoordinator coordinator = job.master.checkpointCoordinator();
        if (coordinator == null) {
            return Optional.of(new CheckpointingStatistics(0, 0, 0, 0, 0, List.of()));
        }
        List<CheckpointStatistics> history = new ArrayList<>();
        List<CheckpointStats> stats = coordinator.getCheckpointStats();
        for (int i = stats.size() - 1; i >= 0; i--) {
            CheckpointStats s = stats.get(i);
            history.add(new CheckpointStatistics(s.checkpointId(), "COMPLETED", s.savepoint(), s.triggerTimestamp(),
                    s.triggerTimestamp() + s.endToEndMillis(), s.stateSize(), s.endToEndMillis(), s.subtasks().size(),
                    s.subtasks().size(), s.externalPointer(), null));
        }
        int completed = (int) coordinator.getNumberOfCompletedCheckpoints();
        return Optional.of(new CheckpointingStatistics(completed, 0, completed, 0, 0, history));
    }

    @Override
    public Optional<JobExceptions> exceptions(JobID jobId) {
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            return Optional.empty();
        }
        List<ExceptionInfo> history = new ArrayList<>(job.exceptions);
        for (EmbeddedJob.Failure failure : job.master.failureHistory()) {
            history.add(info(failure.cause(), failure.timestamp(), failure.concurrent()));
        }
        history.sort((a, b) -> Long.compare(b.timestamp(), a.timestamp()));
        return Optional.of(new JobExceptions(history.isEmpty() ? null : history.get(0), history));
    }

    @Override
    public Optional<JobResult> result(JobID jobId) {
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            return Optional.empty();
        }
        CompletableFuture<JobExecutionResult> result = job.master.getJobExecutionResult();
        if (!result.isDone()) {
            return Optional.empty();
        }
        try {
            JobExecutionResult done = result.join();
            Map<String, String> accumulators = new LinkedHashMap<>();
            done.getAllAccumulatorResults().forEach((name, value) -> accumulators.put(name,
                    java.util.Base64.getEncoder().encodeToString(InstantiationUtil.serialize((Serializable) value,
                            "accumulator '" + name + "'"))));
            return Optional.of(new JobResult(jobId, "SUCCEEDED", done.getNetRuntime(), accumulators, null));
        } catch (java.util.concurrent.CompletionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String status = job.status() == JobStatus.CANCELED ? "CANCELED" : "FAILED";
            return Optional.of(new JobResult(jobId, status, job.endTime - job.startTime, Map.of(),
                    info(cause, job.endTime, List.of())));
        }
    }

    // ------------------------------------------------------------------ actions

    private RunningJob required(JobID jobId) {
        RunningJob job = jobs.get(jobId);
        if (job == null) {
            throw new java.util.NoSuchElementException("No job with id " + jobId);
        }
        return job;
    }

    @Override
    public CompletableFuture<Void> cancel(JobID jobId) {
        try {
            return required(jobId).master.cancel();
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(JobID jobId, String targetDirectory, SavepointFormatType format,
            boolean cancelJob) {
        try {
            RunningJob job = required(jobId);
            CompletableFuture<String> savepoint = job.master.triggerSavepoint(targetDirectory, format);
            return cancelJob ? savepoint.thenCompose(path -> job.master.cancel().thenApply(v -> path)) : savepoint;
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(JobID jobId, String targetDirectory, SavepointFormatType format,
            boolean drain) {
        try {
            return required(jobId).master.stopWithSavepoint(drain, targetDirectory, format);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public CompletableFuture<Void> rescale(JobID jobId, int parallelism) {
        try {
            RunningJob job = required(jobId);
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism must be at least 1, was " + parallelism);
            }
            Map<String, Integer> byUid = new LinkedHashMap<>();
            job.graph.getVertices().forEach(v -> v.getOperators().forEach(op -> byUid.put(op.getConfig().operatorId(),
                    parallelism)));
            return job.master.rescale(byUid);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    @Override
    public String prometheusMetrics() {
        StringBuilder out = new StringBuilder();
        ClusterOverview overview = overview();
        out.append("# TYPE runnel_jobmanager_numRegisteredTaskManagers gauge\n")
                .append("runnel_jobmanager_numRegisteredTaskManagers ").append(overview.taskManagers()).append('\n');
        out.append("# TYPE runnel_jobmanager_taskSlotsTotal gauge\n")
                .append("runnel_jobmanager_taskSlotsTotal ").append(overview.slotsTotal()).append('\n');
        out.append("# TYPE runnel_jobmanager_taskSlotsAvailable gauge\n")
                .append("runnel_jobmanager_taskSlotsAvailable ").append(overview.slotsAvailable()).append('\n');
        out.append("# TYPE runnel_jobmanager_numRunningJobs gauge\n")
                .append("runnel_jobmanager_numRunningJobs ").append(overview.jobsRunning()).append('\n');
        return out.toString();
    }

    /** Cancels every job (the JobManager stops). */
    public void shutdown() {
        jobs.values().forEach(job -> {
            if (!job.status().isGloballyTerminalState()) {
                job.master.cancel();
            }
        });
    }
}
