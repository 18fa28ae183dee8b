package dev.runnel.runtime.dispatcher;

import dev.runnel.api.common.JobID;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.checkpoint.CheckpointStorageLocation;
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
import dev.runnel.runtime.cluster.ControlMessages.StartTask;
import dev.runnel.runtime.cluster.ControlMessages.TaskEndOfInput;
import dev.runnel.runtime.cluster.ControlMessages.TaskFailed;
import dev.runnel.runtime.cluster.ControlMessages.TaskFinished;
import dev.runnel.runtime.cluster.ControlMessages.TaskKey;
import dev.runnel.runtime.cluster.ControlMessages.TaskRunning;
import dev.runnel.runtime.cluster.ControlMessages.TriggerCheckpoint;
import dev.runnel.runtime.cluster.RemoteFailure;
import dev.runnel.runtime.cluster.SourceSplits;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.minicluster.TaskExecutors;
import dev.runnel.runtime.shuffle.TaskLocation;
import dev.runnel.streaming.runtime.source.SourceReaderGateway;
import dev.runnel.streaming.runtime.tasks.DeployedTask;
import dev.runnel.streaming.runtime.tasks.StreamTask;
import dev.runnel.util.InstantiationUtil;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TaskManager processes one job runs on, as its master sees them: slots from the
 * {@link TaskManagerRegistry}, deployments and task calls sent over each TaskManager's control connection,
 * and the tasks' reports (states, checkpoint acknowledgements, split requests) handed to the job. Every report
 * reaches the job on the job's own thread (the control plane's event loop never waits for the job, and the job
 * may wait for the control plane). A lost TaskManager fails each task it ran.
 */
final class RemoteTaskExecutors implements TaskExecutors {

    private static final Logger LOG = LoggerFactory.getLogger(RemoteTaskExecutors.class);

    private final JobID jobId;
    private final String jobName;
    private final Supplier<JobGraph> job;
    private final List<byte[]> jars;
    private final Map<String, String> configuration;
    private final ClassLoader userCodeClassLoader;
    private final TaskManagerRegistry registry;
    private final long slotRequestTimeoutMillis;
    private final long openTimeoutMillis;
    /** The job's thread: every report from the tasks runs here, in arrival order. */
    private final ExecutorService jobThread;
    /** TaskManagers that hold the job's jar already. */
    private final Set<String> hasJar = ConcurrentHashMap.newKeySet();
    private final Map<TaskKey, RemoteTask> tasks = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<TaskLocation>> opening = new ConcurrentHashMap<>();
    private volatile AttemptServices services;
    private volatile int attempt = -1;
    private volatile Map<String, TaskManagerRegistry.Registered> attemptTaskManagers = Map.of();
    private volatile List<TaskManagerRegistry.Slot> slots = List.of();

    RemoteTaskExecutors(JobID jobId, String jobName, Supplier<JobGraph> job, List<byte[]> jars,
            Map<String, String> configuration, ClassLoader userCodeClassLoader, TaskManagerRegistry registry,
            long slotRequestTimeoutMillis, long openTimeoutMillis) {
        this.jobId = jobId;
        this.jobName = jobName;
        this.job = job;
        this.jars = jars;
        this.configuration = Map.copyOf(configuration);
        this.userCodeClassLoader = userCodeClassLoader;
        this.registry = registry;
        this.slotRequestTimeoutMillis = slotRequestTimeoutMillis;
        this.openTimeoutMillis = openTimeoutMillis;
        this.jobThread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "runnel-job-" + jobId);
            t.setDaemon(true);
            return t;
        });
    }

    @Override
    public boolean runsWholeJob() {
        return true;
    }

    @Override
    public List<TaskLocation> openAttempt(AttemptServices attemptServices, int slotCount) throws Exception {
        int number = attemptServices.attempt();
        String owner = owner(number);
        List<TaskManagerRegistry.Slot> taken = registry.allocate(owner, jobName, slotCount, slotRequestTimeoutMillis);
        try {
            Map<String, TaskManagerRegistry.Registered> used = new LinkedHashMap<>();
            taken.forEach(slot -> used.putIfAbsent(slot.taskManager().id(), slot.taskManager()));
            services = attemptServices;
            attempt = number;
            attemptTaskManagers = used;
            slots = taken;
            byte[] graph = InstantiationUtil.serialize(job.get(), "job graph of '" + jobName + "'");
            Map<String, CompletableFuture<TaskLocation>> locations = new LinkedHashMap<>();
            for (TaskManagerRegistry.Registered tm : used.values()) {
                CompletableFuture<TaskLocation> location = new CompletableFuture<>();
                opening.put(tm.id() + "/" + number, location);
                locations.put(tm.id(), location);
                tm.send(new OpenAttempt(jobId, number, jobName, graph, hasJar.add(tm.id()) ? jars : null, configuration,
                        attemptServices.checkpoints().isPeriodicCheckpointingEnabled()));
            }
            Map<String, TaskLocation> byTaskManager = new LinkedHashMap<>();
            for (Map.Entry<String, CompletableFuture<TaskLocation>> entry : locations.entrySet()) {
                try {
                    byTaskManager.put(entry.getKey(), entry.getValue().get(openTimeoutMillis, TimeUnit.MILLISECONDS));
                } catch (TimeoutException e) {
                    throw new IllegalStateException("TaskManager '" + entry.getKey() + "' did not open attempt "
                            + number + " of job '" + jobName + "' within " + openTimeoutMillis + " ms");
                } catch (java.util.concurrent.ExecutionException e) {
                    throw new IllegalStateException("TaskManager '" + entry.getKey() + "' could not open attempt "
                            + number + " of job '" + jobName + "': " + e.getCause().getMessage(), e.getCause());
                }
            }
            List<TaskLocation> bySlot = new ArrayList<>(taken.size());
            taken.forEach(slot -> bySlot.add(byTaskManager.get(slot.taskManager().id())));
            LOG.info("Job '{}' ({}) attempt {} runs on {} slots of {}", jobName, jobId, number, slotCount, used.keySet());
            return bySlot;
        } catch (Exception | Error e) {
            registry.release(owner);
            throw e;
        } finally {
            opening.keySet().removeIf(key -> key.endsWith("/" + number));
        }
    }

    @Override
    public DeployedTask deploy(int slot, TaskSpec spec, StreamTask.TaskListener listener) {
        TaskManagerRegistry.Registered tm = slots.get(slot).taskManager();
        TaskKey key = new TaskKey(jobId, attempt, spec.vertex().getId(), spec.subtask());
        String name = spec.vertex().getName() + " (" + (spec.subtask() + 1) + "/" + spec.vertex().getParallelism() + ")";
        RemoteTask task = new RemoteTask(key, name, tm, listener);
        tasks.put(key, task);
        tm.send(new DeployTask(key, spec.placement(), spec.restore()));
        return task;
    }

    @Override
    public void announceCheckpoint(long checkpointId, CheckpointStorageLocation location) {
        AnnounceCheckpoint announcement = new AnnounceCheckpoint(jobId, attempt, checkpointId, location);
        attemptTaskManagers.values().forEach(tm -> tm.send(announcement));
    }

    @Override
    public void closeAttempt(int number) {
        CloseAttempt close = new CloseAttempt(jobId, number);
        attemptTaskManagers.values().forEach(tm -> tm.send(close));
        // The attempt's tasks stay for the REST API (their final states) until the next attempt replaces them.
        tasks.keySet().removeIf(key -> key.attempt() < number);
        registry.release(owner(number));
    }

    @Override
    public void close() {
        ReleaseJob release = new ReleaseJob(jobId);
        for (TaskManagerRegistry.Registered tm : registry.taskManagers()) {
            if (hasJar.contains(tm.id())) {
                tm.send(release);
            }
        }
        if (attempt >= 0) {
            registry.release(owner(attempt));
        }
        jobThread.shutdown();
    }

    /** The execution state of every subtask of the current attempt, by vertex id (Flink's state names). */
    Map<String, List<String>> subtaskStates() {
        Map<String, List<String>> states = new LinkedHashMap<>();
        List<RemoteTask> current = tasks.values().stream().filter(t -> t.key.attempt() == attempt)
                .sorted(java.util.Comparator.comparingInt(t -> t.key.subtask())).toList();
        for (RemoteTask task : current) {
            states.computeIfAbsent(task.key.vertexId(), v -> new ArrayList<>()).add(task.state);
        }
        return states;
    }

    /** Where the subtasks of the current attempt run: task key → TaskManager id. */
    Map<TaskKey, String> locations() {
        Map<TaskKey, String> where = new LinkedHashMap<>();
        tasks.values().forEach(t -> where.put(t.key, t.taskManager.id()));
        return where;
    }

    private String owner(int number) {
        return jobId + "/" + number;
    }

    // ------------------------------------------------------------------ reports from TaskManagers

    /** A job-scoped message from TaskManager {@code from}; runs on the control plane's event loop. */
    void onMessage(TaskManagerRegistry.Registered from, Serializable message) {
        if (message instanceof AttemptOpened opened) {
            CompletableFuture<TaskLocation> location = opening.get(from.id() + "/" + opened.attempt());
            if (location != null) {
                location.complete(opened.location());
            }
            return;
        }
        if (message instanceof AttemptOpenFailed failed) {
            CompletableFuture<TaskLocation> location = opening.get(from.id() + "/" + failed.attempt());
            if (location != null) {
                location.completeExceptionally(RemoteFailure.restore(failed.error(), userCodeClassLoader));
            }
            return;
        }
        if (jobThread.isShutdown()) {
            LOG.debug("Job '{}' ended; {} dropped", jobName, message.getClass().getSimpleName());
            return;
        }
        jobThread.execute(() -> {
            try {
                handle(message);
            } catch (RuntimeException e) {
                LOG.error("Job '{}': handling {} failed", jobName, message.getClass().getSimpleName(), e);
            }
        });
    }

    private void handle(Serializable message) {
        AttemptServices current = services;
        if (message instanceof TaskRunning running) {
            RemoteTask task = tasks.get(running.task());
            if (task != null && !task.terminal) {
                task.state = "RUNNING";
            }
        } else if (message instanceof TaskFinished finished) {
            RemoteTask task = tasks.get(finished.task());
            if (task != null && task.end("FINISHED")) {
                Map<String, Accumulator<?, ?>> accumulators = InstantiationUtil.deserialize(finished.accumulators(),
                        userCodeClassLoader, "accumulators of " + task.name);
                task.listener.onFinished(task, accumulators);
            }
        } else if (message instanceof TaskFailed failed) {
            RemoteTask task = tasks.get(failed.task());
            Throwable cause = RemoteFailure.restore(failed.error(), userCodeClassLoader);
            if (task != null && task.end(cause instanceof dev.runnel.streaming.runtime.tasks.TaskCancelledException
                    ? "CANCELED" : "FAILED")) {
                task.listener.onFailed(task, cause);
            }
        } else if (message instanceof TaskEndOfInput ended) {
            RemoteTask task = tasks.get(ended.task());
            if (task != null && !task.terminal) {
                task.endedInput = true;
                task.listener.onEndOfInput(task);
            }
        } else if (message instanceof AcknowledgeCheckpoint ack) {
            if (current != null && ack.task().attempt() == attempt) {
                current.checkpoints().acknowledgeCheckpoint(ack.task().vertexId(), ack.task().subtask(),
                        ack.checkpointId(), ack.states(), ack.metrics());
            }
        } else if (message instanceof DeclineCheckpoint decline) {
            if (current != null && decline.task().attempt() == attempt) {
                current.checkpoints().declineCheckpoint(decline.task().vertexId(), decline.task().subtask(),
                        decline.checkpointId(), RemoteFailure.restore(decline.error(), userCodeClassLoader));
            }
        } else if (message instanceof RegisterReader register) {
            RemoteTask task = tasks.get(register.task());
            if (current != null && task != null) {
                current.coordinators().coordinatorFor(register.operatorId()).registerReader(register.task().subtask(),
                        new RemoteReader<>(task, register.operatorId(), SourceSplits.serializer(job.get(), register.operatorId())));
            }
        } else if (message instanceof RequestSplit request) {
            if (current != null && request.task().attempt() == attempt) {
                current.coordinators().coordinatorFor(request.operatorId()).requestSplit(request.task().subtask());
            }
        } else {
            LOG.warn("Job '{}': unexpected control message {}", jobName, message.getClass().getName());
        }
    }

    /** A TaskManager is gone: each task of this job on it fails. */
    void onTaskManagerLost(TaskManagerRegistry.Registered tm, String reason) {
        opening.forEach((key, location) -> {
            if (key.startsWith(tm.id() + "/")) {
                location.completeExceptionally(new IOException("TaskManager '" + tm.id() + "' is lost: " + reason));
            }
        });
        if (jobThread.isShutdown()) {
            return; // the job ended; nothing of it runs there any more
        }
        jobThread.execute(() -> {
            for (RemoteTask task : List.copyOf(tasks.values())) {
                if (task.taskManager == tm && task.end("FAILED")) {
                    task.listener.onFailed(task, new IllegalStateException("Task " + task.name + " failed: "
                            + tm + " is lost: " + reason));
                }
            }
        });
    }

    /** The coordinator's way to a reader on a TaskManager. */
    private static final class RemoteReader<SplitT extends SourceSplit> implements SourceReaderGateway<SplitT> {
        private final RemoteTask task;
        private final String operatorId;
        private final SimpleVersionedSerializer<SourceSplit> serializer;

        RemoteReader(RemoteTask task, String operatorId, SimpleVersionedSerializer<SourceSplit> serializer) {
            this.task = task;
            this.operatorId = operatorId;
            this.serializer = serializer;
        }

        @Override
        public void assignSplits(List<SplitT> splits) {
            List<byte[]> bytes = new ArrayList<>(splits.size());
            try {
                for (SplitT split : splits) {
                    bytes.add(serializer.serialize(split));
                }
            } catch (IOException e) {
                throw new IllegalStateException("The splits " + splits + " of source operator " + operatorId
                        + " cannot be serialized for " + task.name + ": " + e.getMessage(), e);
            }
            task.taskManager.send(new AssignSplits(task.key, operatorId, serializer.getVersion(), bytes));
        }

        @Override
        public void signalNoMoreSplits() {
            task.taskManager.send(new NoMoreSplits(task.key, operatorId));
        }
    }

    /** A subtask on a TaskManager: calls become messages; its state follows the TaskManager's reports. */
    private static final class RemoteTask implements DeployedTask {
        final TaskKey key;
        final String name;
        final TaskManagerRegistry.Registered taskManager;
        final StreamTask.TaskListener listener;
        volatile String state = "DEPLOYING";
        volatile boolean endedInput;
        volatile boolean terminal;

        RemoteTask(TaskKey key, String name, TaskManagerRegistry.Registered taskManager, StreamTask.TaskListener listener) {
            this.key = key;
            this.name = name;
            this.taskManager = taskManager;
            this.listener = listener;
        }

        /** Moves to a terminal state once; false if it was there already. */
        synchronized boolean end(String finalState) {
            if (terminal) {
                return false;
            }
            terminal = true;
            state = finalState;
            return true;
        }

        @Override
        public void start() {
            taskManager.send(new StartTask(key));
        }

        @Override
        public void cancel() {
            if (!terminal) {
                state = "CANCELING";
                taskManager.send(new CancelTask(key));
            }
        }

        @Override
        public boolean hasEndedInput() {
            return endedInput;
        }

        @Override
        public void triggerCheckpointAsync(long checkpointId, long timestamp, CheckpointOptions options, boolean stop,
                boolean drain) {
            taskManager.send(new TriggerCheckpoint(key, checkpointId, timestamp, options, stop, drain));
        }

        @Override
        public void notifyCheckpointCompleteAsync(long checkpointId) {
            taskManager.send(new NotifyCheckpoint(key, checkpointId, true));
        }

        @Override
        public void notifyCheckpointAbortedAsync(long checkpointId) {
            taskManager.send(new NotifyCheckpoint(key, checkpointId, false));
        }

        @Override
        public void releaseAfterEndAsync() {
            taskManager.send(new ReleaseAfterEnd(key));
        }

        @Override
        public String describe() {
            return name + " on " + taskManager;
        }
    }
}
