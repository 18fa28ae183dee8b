package dev.runnel.runtime.minicluster;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.JobID;
import dev.runnel.api.common.JobStatus;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.configuration.BatchExecutionOptions;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.ExternalizedCheckpointRetention;
import dev.runnel.configuration.StateRecoveryOptions;
import dev.runnel.core.execution.JobClient;
import dev.runnel.core.execution.JobExecutionException;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.metrics.SimpleMetricGroup;
import dev.runnel.runtime.checkpoint.ChannelStateAssignment;
import dev.runnel.runtime.checkpoint.CheckpointCoordinator;
import dev.runnel.runtime.checkpoint.CheckpointCoordinatorConfiguration;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.checkpoint.CheckpointStorageAccess;
import dev.runnel.runtime.checkpoint.Checkpoints;
import dev.runnel.runtime.checkpoint.CompletedCheckpoint;
import dev.runnel.runtime.checkpoint.CompletedCheckpointStore;
import dev.runnel.runtime.checkpoint.DefaultCompletedCheckpointStore;
import dev.runnel.runtime.checkpoint.OperatorState;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.checkpoint.StateAssignmentOperation;
import dev.runnel.runtime.executiongraph.failover.RestartBackoffTimeStrategy;
import dev.runnel.runtime.executiongraph.failover.RestartBackoffTimeStrategyFactoryLoader;
import dev.runnel.runtime.jobgraph.ChainedOperator;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.partitioner.StreamPartitioner;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.TaskLocation;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.storage.FileSystemCheckpointStorage;
import dev.runnel.runtime.state.storage.StorageFiles;
import dev.runnel.streaming.runtime.source.SourceCoordinator;
import dev.runnel.streaming.runtime.source.SourceOperator;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.tasks.CheckpointResponder;
import dev.runnel.streaming.runtime.tasks.DeployedTask;
import dev.runnel.streaming.runtime.tasks.StreamTask;
import dev.runnel.streaming.runtime.tasks.TaskCancellationTimeoutException;
import dev.runnel.streaming.runtime.tasks.TaskCancelledException;
import dev.runnel.streaming.runtime.tasks.TaskRestore;
import dev.runnel.streaming.runtime.tasks.TaskRestoreException;
import dev.runnel.util.InstantiationUtil;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One job running in the embedded runtime: its checkpoint coordinator, and its current attempt (source
 * coordinators and tasks). The first task failure of an attempt cancels its other tasks; once they all
 * stopped, the restart strategy decides: a new attempt from the latest completed checkpoint (on fresh
 * shuffles), or the job fails with the root cause and the number of restarts. The job completes once an
 * attempt's tasks all finished. A job may start from a savepoint or retained checkpoint
 * ({@code execution.state-recovery.path}), at any parallelism: every restore redistributes each operator's
 * state to the parallelism it runs at ({@link StateAssignmentOperation}).
 */
public final class EmbeddedJob implements JobClient {

    private static final Logger LOG = LoggerFactory.getLogger(EmbeddedJob.class);
    /** How long the job's end waits for snapshot writers it interrupted (one blocked in a slow file system). */
    private static final long ASYNC_STOP_WAIT_SECONDS = 10;

    private final JobID jobId;
    private final JobGraph job;
    private final Configuration configuration;
    /** Where the job's subtasks run: TaskManagers in this JVM, or a cluster's. */
    private final TaskExecutors executors;
    private final StateBackend stateBackend;
    private final ScheduledExecutorService scheduler;
    private final ExecutorService asyncOperations;
    /** The threads of {@link #asyncOperations}: the job's end waits for them, unless it runs on one. */
    private final java.util.Set<Thread> asyncThreads = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final CompletableFuture<JobExecutionResult> result = new CompletableFuture<>();
    private final Path workingDirectory;
    private final SimpleMetricGroup metrics;
    private final CheckpointCoordinatorConfiguration checkpointConfig;
    private final RestartBackoffTimeStrategy restartStrategy;
    private CheckpointCoordinator checkpoints;
    /** What {@code execution.state-recovery.path} named, or null: the state to restart from until a checkpoint completes. */
    private CompletedCheckpoint initialState;
    /** Non-null for a BATCH job whose vertices deploy as their inputs complete, at the parallelism their data needs. */
    private AdaptiveBatchScheduling adaptive;
    private volatile Attempt current;
    private volatile JobStatus status = JobStatus.CREATED;
    private volatile boolean cancelRequested;
    private volatile boolean terminal;
    /** Set when a stop-with-savepoint completed: the tasks are then stopped and the job ends FINISHED. */
    private volatile boolean stoppedWithSavepoint;
    /** An in-place rescale whose snapshot completed: the attempt's end redeploys at the new parallelism. */
    private volatile PendingRescale pendingRescale;

    /**
     * The latest rescale snapshot, from its completion (the current attempt or the next restores from it) until
     * its state is deleted ({@link #discardHandover}); null otherwise. Guarded by {@code this}.
     */
    private CompletedCheckpoint handover;

    private record PendingRescale(java.util.Map<String, Integer> parallelism, CompletedCheckpoint snapshot,
            long startNanos, CompletableFuture<Void> done) {}
    private int restarts;
    private long startNanos;
    private final java.util.ArrayDeque<AttemptFailures> failures = new java.util.ArrayDeque<>();

    /** Every TaskManager in this JVM: the whole job runs here, and the job closes the shuffles when it ends. */
    EmbeddedJob(JobGraph job, Configuration configuration, List<ShuffleEnvironment> taskManagers,
            StateBackend stateBackend) {
        this(JobID.generate(), job, configuration, LocalTaskExecutors.owning(job, configuration, taskManagers),
                stateBackend);
    }

    /**
     * Only the subtasks of {@code localTaskManagers} run here; the other TaskManagers run the rest of the same
     * job graph in other processes, and records cross over their shuffles. The caller owns the shuffles, so a
     * failure is not restarted here.
     */
    EmbeddedJob(JobGraph job, Configuration configuration, List<TaskLocation> taskManagers,
            Map<Integer, ShuffleEnvironment> localTaskManagers, StateBackend stateBackend) {
        this(JobID.generate(), job, configuration,
                LocalTaskExecutors.split(job, configuration, taskManagers, localTaskManagers), stateBackend);
    }

    /**
     * A job whose subtasks run where {@code executors} puts them (a cluster's JobManager uses this); call
     * {@link #start()} to run it. {@code configuration} is the job's effective configuration.
     */
    public EmbeddedJob(JobID jobId, JobGraph job, Configuration configuration, TaskExecutors executors,
            StateBackend stateBackend) {
        this.jobId = jobId;
        this.job = job;
        this.configuration = configuration;
        this.executors = executors;
        this.stateBackend = stateBackend;
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "runnel-timers-" + job.getJobName());
            t.setDaemon(true);
            return t;
        });
        this.asyncOperations = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(() -> {
                try {
                    r.run();
                } finally {
                    asyncThreads.remove(Thread.currentThread());
                }
            }, "runnel-async-snapshots-" + job.getJobName());
            t.setDaemon(true);
            asyncThreads.add(t);
            return t;
        });
        this.metrics = new SimpleMetricGroup(job.getJobName());
        String tmp = configuration.get(EmbeddedRuntime.TMP_DIRS).split(",")[0].trim();
        this.workingDirectory = Path.of(tmp, "runnel-" + jobId);
        this.checkpointConfig = CheckpointCoordinatorConfiguration.fromConfiguration(configuration);
        this.restartStrategy = RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(configuration,
                checkpointConfig.isCheckpointingEnabled());
    }

    /** Starts the job: restores its initial state if configured, deploys the first attempt. Returns at once. */
    public void start() {
        startNanos = System.nanoTime();
        try {
            Files.createDirectories(workingDirectory);
            initialState = loadInitialState();
            adaptive = AdaptiveBatchScheduling.createIfApplicable(job, configuration, executors.tasksShareThisProcess(),
                    initialState != null);
            if (executors.runsWholeJob()) {
                // Also without periodic checkpoints: the coordinator takes savepoints. A job split over
                // processes (the test launcher) has no coordinator here: it sees only its own tasks.
                checkpoints = createCheckpointCoordinator(initialState == null ? 1 : initialState.getCheckpointID() + 1);
            } else if (checkpointConfig.isCheckpointingEnabled()) {
                LOG.warn("Job '{}' runs split over several processes without a JobManager; it takes no checkpoints",
                        job.getJobName());
            }
            status = JobStatus.RUNNING;
            startAttempt(initialState);
            startCheckpointScheduler();
        } catch (Exception e) {
            terminal = true;
            finishJob(e, Map.of());
        }
    }

    /**
     * Starts periodic checkpoints, if any are configured; a BATCH job with blocking exchanges takes none (as in
     * Flink, BATCH execution does not checkpoint: a failed attempt runs again from its input).
     */
    private void startCheckpointScheduler() {
        if (checkpoints == null) {
            return;
        }
        if (adaptive != null) {
            if (checkpointConfig.isCheckpointingEnabled()) {
                LOG.info("Job '{}' runs in BATCH mode and takes no checkpoints; execution.checkpointing.interval is"
                        + " ignored", job.getJobName());
            }
            return;
        }
        checkpoints.startCheckpointScheduler();
    }

    private CheckpointCoordinator createCheckpointCoordinator(long firstCheckpointId) throws IOException {
        String directory = checkpointConfig.getCheckpointDirectory();
        if (directory == null) {
            // No checkpoint directory: as Flink's in-memory storage, checkpoints live only as long as the job.
            directory = workingDirectory.resolve("checkpoints").toString();
        }
        FileSystemCheckpointStorage storage = new FileSystemCheckpointStorage(directory,
                checkpointConfig.getSavepointDirectory(), (int) checkpointConfig.getInlineThresholdBytes());
        CheckpointStorageAccess access = storage.createCheckpointStorage(jobId.toString());
        CompletedCheckpointStore store = new DefaultCompletedCheckpointStore(checkpointConfig.getMaxRetainedCheckpoints());
        return new CheckpointCoordinator(jobId.toString(), job, checkpointConfig, access, store, firstCheckpointId,
                new JobAccess());
    }

    /**
     * The savepoint or retained checkpoint {@code execution.state-recovery.path} names (loaded and its files
     * checked), or null when the option is unset. Read without the job's checkpoint storage, which a job that
     * does not checkpoint lacks: the pointer says where the metadata is. State of an operator id the job does
     * not have fails the start, naming it, unless {@code execution.state-recovery.ignore-unclaimed-state}.
     */
    private CompletedCheckpoint loadInitialState() throws IOException {
        String path = configuration.get(StateRecoveryOptions.SAVEPOINT_PATH);
        if (path == null || path.isBlank()) {
            return null;
        }
        CompletedCheckpoint checkpoint = Checkpoints.loadCheckpointMetadata(path);
        java.util.Set<String> operatorIds = new java.util.HashSet<>();
        job.getVertices().forEach(v -> v.getOperators().forEach(op -> operatorIds.add(op.getConfig().operatorId())));
        boolean ignoreUnclaimed = configuration.get(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE);
        for (OperatorState state : checkpoint.getOperatorStates().values()) {
            boolean hasState = state.getCoordinatorState() != null
                    || state.getSubtaskStates().values().stream().anyMatch(s -> !s.isEmpty());
            if (!hasState || operatorIds.contains(state.getOperatorID())) {
                continue;
            }
            if (!ignoreUnclaimed) {
                throw new IllegalStateException(String.format("Job '%s' cannot start from %s: it holds state of operator"
                        + " %s, which the job does not have. If the operator was changed, give it its old id again"
                        + " (uid(\"...\")); to drop its state, set %s: true.", job.getJobName(), checkpoint,
                        state.getOperatorID(), StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE.key()));
            }
            LOG.warn("Job '{}': the state of operator {} in {} is not restored: the job has no such operator",
                    job.getJobName(), state.getOperatorID(), checkpoint);
        }
        LOG.info("Job '{}' ({}) restores from {}", job.getJobName(), jobId, checkpoint);
        return checkpoint;
    }

    // ------------------------------------------------------------------ attempts

    /**
     * Deploys every local task of the job, restored from {@code checkpoint} if not null; with adaptive BATCH
     * scheduling only the sources, the rest as their inputs complete ({@link #deployReady}).
     */
    private void startAttempt(CompletedCheckpoint checkpoint) throws Exception {
        int number = current == null ? 0 : current.number + 1;
        Attempt attempt = new Attempt(number, checkpoint);
        CheckpointResponder responder = checkpoints == null ? CheckpointResponder.NONE : checkpoints;
        List<JobVertex> first = adaptive == null ? job.getVertices() : adaptive.startAttempt(number, workingDirectory);
        java.util.function.ToIntFunction<JobVertex> width = adaptive == null ? JobVertex::getParallelism
                : adaptive::upperBound;
        attempt.slotOffsets = slotOffsets(job, width);
        int slots = 0;
        for (JobVertex vertex : job.getVertices()) {
            slots = Math.max(slots, attempt.slotOffsets.get(vertex.getSlotSharingGroup()) + width.applyAsInt(vertex));
        }
        attempt.slotLocations = executors.openAttempt(new TaskExecutors.AttemptServices(number, responder,
                attempt.coordinators::get, stateBackend, metrics, scheduler, asyncOperations,
                workingDirectory.toFile()), slots);
        attempt.assigned = assignStates(checkpoint);
        List<DeployedTask> deployed = deploy(attempt, first);
        current = attempt;
        attempt.coordinators.values().forEach(c -> c.start(attempt.coordinatorCheckpoints.get(c)));
        attempt.running.set(deployed.size());
        LOG.info("Job '{}' ({}) starts {} tasks{}", job.getJobName(), jobId, deployed.size(),
                checkpoint == null ? "" : " from checkpoint " + checkpoint.getCheckpointID() + " (attempt " + number + ")");
        deployed.forEach(DeployedTask::start);
        attempt.started = true;
    }

    /**
     * Deploys (without starting) the subtasks of {@code vertices} in this process, at their parallelism now. As
     * Flink's slot sharing: subtask i of every vertex of a group shares the group's slot i; the groups' slots
     * follow each other.
     */
    private List<DeployedTask> deploy(Attempt attempt, List<JobVertex> vertices) throws Exception {
        for (JobVertex vertex : vertices) {
            List<TaskLocation> subtasks = new ArrayList<>();
            for (int subtask = 0; subtask < vertex.getParallelism(); subtask++) {
                subtasks.add(attempt.slotLocations.get(attempt.slotOffsets.get(vertex.getSlotSharingGroup()) + subtask));
            }
            attempt.locations.put(vertex.getId(), subtasks);
        }
        TaskPlacement placement = new TaskPlacement(attempt.locations);
        List<DeployedTask> deployed = new ArrayList<>();
        for (JobVertex vertex : vertices) {
            List<byte[]> operators = new ArrayList<>();
            for (ChainedOperator op : vertex.getOperators()) {
                operators.add(InstantiationUtil.serialize(op.getOperator(), "operator '" + op.getName() + "'"));
            }
            startCoordinator(attempt, vertex, attempt.restoredFrom);
            for (int subtask = 0; subtask < vertex.getParallelism(); subtask++) {
                int slot = attempt.slotOffsets.get(vertex.getSlotSharingGroup()) + subtask;
                DeployedTask task = executors.deploy(slot, new TaskExecutors.TaskSpec(vertex, subtask, operators,
                        placement, restoreOf(attempt.restoredFrom, attempt.assigned, vertex, subtask)), attempt);
                if (task != null) {
                    attempt.tasks.add(task);
                    attempt.vertexOf.put(task, vertex);
                    deployed.add(task);
                    if (vertex.getNumberOfInputs() == 0) {
                        attempt.sources.add(task);
                    }
                }
            }
        }
        return deployed;
    }

    /**
     * Adaptive BATCH: a task of {@code attempt} finished; deploys and starts the vertices whose input that
     * completed. Runs on the finishing task's thread before it counts as ended, so the attempt cannot end in
     * between; a failure meanwhile cancels what was started.
     */
    private void deployReady(Attempt attempt, DeployedTask finished) {
        synchronized (attempt) {
            if (attempt.failure.cause() != null || attempt != current) {
                return;
            }
            try {
                List<JobVertex> ready = adaptive.taskFinished(attempt.vertexOf.get(finished));
                if (ready.isEmpty()) {
                    return;
                }
                List<DeployedTask> deployed = deploy(attempt, ready);
                attempt.running.addAndGet(deployed.size());
                deployed.forEach(DeployedTask::start);
                if (attempt.failure.cause() != null) {
                    deployed.forEach(DeployedTask::cancel);
                }
            } catch (Throwable t) {
                attempt.fail(t);
            }
        }
    }

    /**
     * Every operator's state in {@code checkpoint} redistributed to the parallelism it runs at now (the state
     * itself where that did not change), by operator id; once per attempt, not per subtask.
     */
    private Map<String, OperatorState> assignStates(CompletedCheckpoint checkpoint) {
        Map<String, OperatorState> assigned = new HashMap<>();
        if (checkpoint == null) {
            return assigned;
        }
        for (JobVertex vertex : job.getVertices()) {
            for (ChainedOperator operator : vertex.getOperators()) {
                String id = operator.getConfig().operatorId();
                OperatorState state = checkpoint.getOperatorStates().get(id);
                if (state == null) {
                    continue;
                }
                try {
                    assigned.put(id, StateAssignmentOperation.redistribute(state, vertex.getParallelism(),
                            vertex.getMaxParallelism(), edgeId -> inputEdge(vertex, edgeId, checkpoint)));
                } catch (IllegalStateException e) {
                    throw new IllegalStateException(String.format("Cannot restore operator '%s' from %s (parallelism %s"
                            + " then, %s now): %s", operator.getName(), checkpoint, state.getParallelism(),
                            vertex.getParallelism(), e.getMessage()), e);
                }
            }
        }
        return assigned;
    }

    /**
     * Input edge {@code edgeId} of {@code vertex} as channel-state reassignment needs it, or null if the vertex
     * has no such input. The producer's old parallelism is that of any of its operators' state in
     * {@code checkpoint} (0, unknown, when none had state).
     */
    private static ChannelStateAssignment.Edge inputEdge(JobVertex vertex, String edgeId, CompletedCheckpoint checkpoint) {
        for (JobEdge edge : vertex.getInputs()) {
            if (!edge.getId().equals(edgeId)) {
                continue;
            }
            int oldProducerParallelism = 0;
            for (ChainedOperator operator : edge.getSource().getOperators()) {
                OperatorState producer = checkpoint.getOperatorStates().get(operator.getConfig().operatorId());
                if (producer != null) {
                    oldProducerParallelism = producer.getParallelism();
                    break;
                }
            }
            StreamPartitioner<?> partitioner = edge.getPartitioner();
            return new ChannelStateAssignment.Edge(String.format("%s (%s) from '%s' to '%s'", edge.getId(), partitioner,
                    edge.getSourceOperatorName(), edge.getTargetOperatorName()),
                    partitioner.getUpstreamSubtaskStateMapper(), partitioner.getDownstreamSubtaskStateMapper(),
                    oldProducerParallelism, edge.getSource().getParallelism());
        }
        return null;
    }

    /** The state of subtask {@code subtask} of {@code vertex}'s operators, from {@link #assignStates}. */
    private static TaskRestore restoreOf(CompletedCheckpoint checkpoint, Map<String, OperatorState> assigned,
            JobVertex vertex, int subtask) {
        if (checkpoint == null) {
            return null;
        }
        Map<String, OperatorSubtaskState> states = new HashMap<>();
        for (ChainedOperator operator : vertex.getOperators()) {
            OperatorState state = assigned.get(operator.getConfig().operatorId());
            if (state != null) {
                states.put(state.getOperatorID(), state.getState(subtask));
            }
        }
        return new TaskRestore(checkpoint.getCheckpointID(), states);
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void startCoordinator(Attempt attempt, JobVertex vertex, CompletedCheckpoint checkpoint) throws IOException {
        ChainedOperator head = vertex.getHead();
        if (head.getOperator() instanceof SourceOperator<?, ?> source) {
            String id = head.getConfig().operatorId();
            java.util.function.Consumer<Throwable> onFailure = cause -> attempt.fail(cause);
            SourceCoordinator coordinator = new SourceCoordinator(head.getName(), source.getSource(),
                    vertex.getParallelism(), onFailure);
            attempt.coordinators.put(id, coordinator);
            OperatorState state = checkpoint == null ? null : checkpoint.getOperatorStates().get(id);
            if (state != null && state.getCoordinatorState() != null) {
                attempt.coordinatorCheckpoints.put(coordinator, readFully(state.getCoordinatorState()));
            }
        }
    }

    private static byte[] readFully(StreamStateHandle handle) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate((int) handle.getStateSize());
        try (SeekableByteChannel channel = handle.openChannel()) {
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // read on
            }
        }
        if (buffer.hasRemaining()) {
            throw new IOException("Coordinator state " + handle.describe() + " is shorter than its recorded "
                    + handle.getStateSize() + " bytes");
        }
        return buffer.array();
    }

    /** The first task failure of the current attempt: cancel the rest; decide once all stopped. */
    private void attemptFailed(Attempt attempt, Throwable cause) {
        if (attempt != current) {
            return;
        }
        if (checkpoints != null) {
            checkpoints.stopCheckpointScheduler("a task failed: " + cause);
        }
        if (!(cause instanceof TaskCancelledException)) {
            LOG.warn("Job '{}' ({}) attempt {} failed: {}", job.getJobName(), jobId, attempt.number, cause.toString());
        }
        attempt.tasks.forEach(DeployedTask::cancel);
    }

    /** Every task of {@code attempt} stopped. */
    private void attemptEnded(Attempt attempt) {
        attempt.coordinators.values().forEach(SourceCoordinator::close);
        executors.closeAttempt(attempt.number);
        // An attempt restored from a rescale snapshot that ends before all its tasks restored: nobody else will.
        discardHandover(attempt.restoredFrom);
        Throwable cause = attempt.failure.cause();
        if (cause == null) {
            terminal = true;
            finishJob(null, attempt.accumulators);
            return;
        }
        if (cause instanceof TaskRestoreException && attempt.restoredFrom != null && attempt.restoredFrom == initialState) {
            // The state the job was started from cannot be read: a restart would fail the same way.
            terminal = true;
            finishJob(cause, attempt.accumulators);
            return;
        }
        if (cause instanceof TaskRestoreException restoreFailure && checkpoints != null && attempt.restoredFrom != null) {
            LOG.error("Job '{}': checkpoint {} cannot be restored ({}); falling back to an earlier one",
                    job.getJobName(), attempt.restoredFrom.getCheckpointID(), restoreFailure.getMessage());
            checkpoints.getCheckpointStore().removeUnrestorable(attempt.restoredFrom);
        }
        if (stoppedWithSavepoint) {
            terminal = true;
            finishJob(null, attempt.accumulators);
            return;
        }
        PendingRescale rescale = pendingRescale;
        if (rescale != null) {
            pendingRescale = null;
            redeployRescaled(rescale);
            return;
        }
        if (cancelRequested || !executors.runsWholeJob() || cause instanceof TaskCancellationTimeoutException) {
            terminal = true;
            finishJob(cause, attempt.accumulators);
            return;
        }
        restartStrategy.notifyFailure(cause);
        if (!restartStrategy.canRestart()) {
            terminal = true;
            finishJob(cause, attempt.accumulators);
            return;
        }
        long backoff = restartStrategy.getBackoffTime();
        restarts++;
        status = JobStatus.RESTARTING;
        LOG.info("Job '{}' ({}) restarts in {} ms (restart {}, {})", job.getJobName(), jobId, backoff, restarts,
                restartStrategy.getDescription());
        scheduler.schedule(this::restart, backoff, TimeUnit.MILLISECONDS);
    }

    private void restart() {
        if (cancelRequested) {
            terminal = true;
            finishJob(new TaskCancelledException("Job '" + job.getJobName() + "' was cancelled by the user"), Map.of());
            return;
        }
        try {
            status = JobStatus.RUNNING;
            CompletedCheckpoint latest = latestRestorableCheckpoint();
            startAttempt(latest != null ? latest : initialState);
            startCheckpointScheduler();
        } catch (Throwable t) {
            terminal = true;
            finishJob(t, Map.of());
        }
    }

    /**
     * The newest retained checkpoint whose metadata and files are intact; one that is not is dropped from the
     * store (its files stay for inspection) and the one before is tried.
     */
    private CompletedCheckpoint latestRestorableCheckpoint() {
        if (checkpoints == null) {
            return null;
        }
        CompletedCheckpointStore store = checkpoints.getCheckpointStore();
        List<CompletedCheckpoint> retained = new ArrayList<>(store.getAllCheckpoints());
        for (int i = retained.size() - 1; i >= 0; i--) {
            CompletedCheckpoint candidate = retained.get(i);
            try {
                checkpoints.getCheckpointStorage().loadCheckpoint(candidate.getExternalPointer());
                return candidate;
            } catch (IOException e) {
                LOG.error("Job '{}': checkpoint {} cannot be restored: {}{}", job.getJobName(),
                        candidate.getCheckpointID(), e.getMessage(),
                        i > 0 ? "; falling back to checkpoint " + retained.get(i - 1).getCheckpointID()
                                : "; no earlier checkpoint is retained, restarting without state");
                store.removeUnrestorable(candidate);
            }
        }
        return null;
    }

    /** The first slot of each slot sharing group: the groups, in order of appearance, take as many slots as
     *  their widest vertex has subtasks ({@code subtasks} of it). */
    private static Map<String, Integer> slotOffsets(JobGraph job, java.util.function.ToIntFunction<JobVertex> subtasks) {
        Map<String, Integer> width = new java.util.LinkedHashMap<>();
        for (JobVertex vertex : job.getVertices()) {
            width.merge(vertex.getSlotSharingGroup(), subtasks.applyAsInt(vertex), Math::max);
        }
        Map<String, Integer> offsets = new HashMap<>();
        int next = 0;
        for (Map.Entry<String, Integer> group : width.entrySet()) {
            offsets.put(group.getKey(), next);
            next += group.getValue();
        }
        return offsets;
    }

    private void finishJob(Throwable cause, Map<String, Accumulator<?, ?>> accumulators) {
        long runtimeMillis = (System.nanoTime() - startNanos) / 1_000_000;
        CompletedCheckpoint leftOver;
        synchronized (this) {
            leftOver = handover;
        }
        discardHandover(leftOver);
        stopAsyncOperations();
        boolean retain = false;
        if (checkpoints != null) {
            checkpoints.close();
            ExternalizedCheckpointRetention retention = checkpointConfig.getExternalizedCheckpointRetention();
            retain = cause != null && (retention == ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION
                    || (retention == ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION && !cancelRequested));
            try {
                checkpoints.getCheckpointStore().shutdown(!retain);
            } catch (IOException e) {
                LOG.warn("Job '{}': could not delete its checkpoints: {}", job.getJobName(), e.toString());
            }
        }
        scheduler.shutdownNow();
        executors.close();
        deleteWorkingDirectory();
        if (cause == null) {
            status = JobStatus.FINISHED;
            Map<String, Object> values = new HashMap<>();
            accumulators.forEach((name, acc) -> values.put(name, acc.getLocalValue()));
            result.complete(new JobExecutionResult(jobId, runtimeMillis, values));
        } else {
            status = cancelRequested ? JobStatus.CANCELED : JobStatus.FAILED;
            String what = cancelRequested ? "was cancelled" : "failed";
            String after = restarts == 0 ? "" : " after " + restarts + (restarts == 1 ? " restart" : " restarts")
                    + " (" + restartStrategy.getDescription() + ")";
            result.completeExceptionally(new JobExecutionException(jobId,
                    "Job '" + job.getJobName() + "' (" + jobId + ") " + what + after + ": " + cause.getMessage(), cause));
        }
    }

    /**
     * Interrupts the snapshot writers still running (an ended task's last checkpoint) and waits for them, boundedly:
     * what they acknowledge or decline then reaches the coordinator before it closes, and no file of a checkpoint
     * is written or deleted after the job's result is out.
     */
    private void stopAsyncOperations() {
        asyncOperations.shutdownNow();
        if (asyncThreads.contains(Thread.currentThread())) {
            return;
        }
        try {
            if (!asyncOperations.awaitTermination(ASYNC_STOP_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Job '{}': a checkpoint's state is still being written {} s after the job ended",
                        job.getJobName(), ASYNC_STOP_WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void deleteWorkingDirectory() {
        try {
            StorageFiles.deleteRecursively(workingDirectory);
        } catch (IOException e) {
            LOG.warn("Could not delete the job's working directory {}: {}", workingDirectory, e.toString());
        }
    }

    /** The job's metrics: one group per task ({@code <job>.<vertex>.<subtask>.<metric>}). */
    MetricGroup metrics() {
        return metrics;
    }

    /** The checkpoint coordinator, or null when the job runs split over processes without one. */
    public CheckpointCoordinator checkpointCoordinator() {
        return checkpoints;
    }

    /** How often the job restarted so far. */
    public int restarts() {
        return restarts;
    }

    /**
     * One failure of an attempt: when it was first seen, its cause, and the other failures of the same attempt
     * (Flink's concurrent exceptions, at most {@value AttemptFailures#MAX_CONCURRENT}), first reported first.
     */
    public record Failure(long timestamp, Throwable cause, List<Throwable> concurrent) {}

    /** The failures of the job's attempts so far, oldest first (at most the last 32). */
    public List<Failure> failureHistory() {
        synchronized (failures) {
            return failures.stream().map(AttemptFailures::snapshot).toList();
        }
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
        Attempt attempt = current;
        if (attempt != null) {
            attempt.fail(new TaskCancelledException("Job '" + job.getJobName() + "' was cancelled by the user"));
        }
        return result.handle((r, t) -> null);
    }

    @Override
    public CompletableFuture<JobExecutionResult> getJobExecutionResult() {
        return result;
    }

    @Override
    public CompletableFuture<Void> rescale(Map<String, Integer> parallelismByUid) {
        if (checkpoints == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("Job '" + job.getJobName()
                    + "' runs split over processes without a JobManager and cannot be rescaled"));
        }
        if (adaptive != null) {
            return CompletableFuture.failedFuture(new IllegalStateException("Job '" + job.getJobName() + "' runs in"
                    + " BATCH mode, where each operator's parallelism is decided from its input when it starts; it"
                    + " cannot be rescaled while running. Set " + BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_MAX_PARALLELISM.key()
                    + " or the operators' parallelism instead."));
        }
        try {
            job.checkRescale(parallelismByUid);
        } catch (IllegalArgumentException e) {
            return CompletableFuture.failedFuture(e);
        }
        long start = System.nanoTime();
        CompletableFuture<Void> done = new CompletableFuture<>();
        checkpoints.triggerRescaleSnapshot(executors.tasksShareThisProcess()).whenComplete((snapshot, failure) -> {
            if (failure != null) {
                done.completeExceptionally(failure);
                return;
            }
            adoptHandover(snapshot);
            pendingRescale = new PendingRescale(Map.copyOf(parallelismByUid), snapshot, start, done);
            current.fail(new TaskCancelledException("Job '" + job.getJobName() + "' is being rescaled"));
        });
        return done;
    }

    /**
     * The old tasks all stopped at the rescale snapshot: deploy the new ones from it, at once. The snapshot is
     * discarded once every new task restored ({@link Attempt#onRestored}), or when the new attempt ends before
     * that, or here if it cannot start: its local files (a RocksDB store's, handed over by path) are nobody's
     * after that, and no restart restores from it (restarts take the retained checkpoints).
     */
    private void redeployRescaled(PendingRescale rescale) {
        try {
            Map<String, Integer> changed = job.rescale(rescale.parallelism());
            startAttempt(rescale.snapshot());
            checkpoints.startCheckpointScheduler();
            long pauseMillis = (System.nanoTime() - rescale.startNanos()) / 1_000_000;
            LOG.info("Job '{}' ({}) rescaled in place ({} by vertex) within {} ms of the request", job.getJobName(),
                    jobId, changed, pauseMillis);
            rescale.done().complete(null);
        } catch (Throwable t) {
            discardHandover(rescale.snapshot());
            rescale.done().completeExceptionally(t);
            terminal = true;
            finishJob(t, Map.of());
        }
    }

    /**
     * Rescale snapshot {@code snapshot} completed: its state is to be deleted by {@link #discardHandover} (or at
     * the job's end, if the job ends before the new tasks restored). An earlier one still held is deleted now:
     * every task acknowledged the new snapshot, so every task restored from the earlier one before.
     */
    private void adoptHandover(CompletedCheckpoint snapshot) {
        CompletedCheckpoint earlier;
        synchronized (this) {
            earlier = handover;
            handover = snapshot;
        }
        if (earlier != null) {
            discard(earlier);
        }
    }

    /** Deletes the state of rescale snapshot {@code snapshot} if it is still to be deleted; thread-safe, once. */
    private void discardHandover(CompletedCheckpoint snapshot) {
        synchronized (this) {
            if (snapshot == null || handover != snapshot) {
                return;
            }
            handover = null;
        }
        discard(snapshot);
    }

    private void discard(CompletedCheckpoint snapshot) {
        try {
            snapshot.discardExclusiveState();
            LOG.debug("Job '{}': the state handed over by rescale snapshot {} is deleted", job.getJobName(),
                    snapshot.getCheckpointID());
        } catch (IOException e) {
            LOG.warn("Job '{}': could not delete the state handed over by rescale snapshot {}: {}", job.getJobName(),
                    snapshot.getCheckpointID(), e.toString());
        }
    }

    @Override
    public CompletableFuture<String> triggerSavepoint(String savepointDirectory, SavepointFormatType formatType) {
        if (checkpoints == null) {
            return CompletableFuture.failedFuture(new IllegalStateException("Job '" + job.getJobName()
                    + "' runs split over processes without a JobManager and cannot take savepoints"));
        }
        return checkpoints.triggerSavepoint(savepointDirectory, formatType, false, false)
                .thenApply(CompletedCheckpoint::getExternalPointer);
    }

    @Override
    public CompletableFuture<String> stopWithSavepoint(boolean advanceToEndOfEventTime, String savepointDirectory,
            SavepointFormatType formatType) {
        if (checkpoints == null) {
            return triggerSavepoint(savepointDirectory, formatType);
        }
        return checkpoints.triggerSavepoint(savepointDirectory, formatType, true, advanceToEndOfEventTime)
                .thenApply(savepoint -> {
                    stoppedWithSavepoint = true;
                    LOG.info("Job '{}' ({}) stops after savepoint {}", job.getJobName(), jobId,
                            savepoint.getExternalPointer());
                    current.fail(new TaskCancelledException("Job '" + job.getJobName() + "' stopped with savepoint "
                            + savepoint.getExternalPointer()));
                    return savepoint.getExternalPointer();
                });
    }

    /** What the checkpoint coordinator sees of the job: always the current attempt. */
    private final class JobAccess implements CheckpointCoordinator.JobAccess {

        @Override
        public boolean allTasksRunning() {
            Attempt attempt = current;
            return attempt != null && attempt.started && attempt.failure.cause() == null
                    && attempt.finished.get() == 0 && !terminal;
        }

        @Override
        public void triggerSources(long checkpointId, long timestamp, CheckpointOptions options, boolean stop,
                boolean drain) {
            // Running sources inject the barrier; a task whose input already ended gets no barrier (its channels
            // ended instead) and snapshots its final state directly.
            announce(checkpointId);
            for (DeployedTask task : current.tasks) {
                if (current.sources.contains(task) || task.hasEndedInput()) {
                    task.triggerCheckpointAsync(checkpointId, timestamp, options, stop, drain);
                }
            }
        }

        @Override
        public void triggerFinal(long checkpointId, long timestamp, CheckpointOptions options) {
            announce(checkpointId);
            for (DeployedTask task : current.tasks) {
                task.triggerCheckpointAsync(checkpointId, timestamp, options);
            }
        }

        @Override
        public void reopenCoordinators(long checkpointId) {
            current.coordinators.values().forEach(c -> c.reopenGateways(checkpointId));
        }

        @Override
        public void releaseEndedTasks() {
            current.tasks.forEach(DeployedTask::releaseAfterEndAsync);
        }

        @Override
        public Map<String, CompletableFuture<byte[]>> snapshotCoordinators(long checkpointId) {
            Map<String, CompletableFuture<byte[]>> snapshots = new HashMap<>();
            current.coordinators.forEach((id, coordinator) -> snapshots.put(id, coordinator.snapshotAsync(checkpointId)));
            return snapshots;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            current.tasks.forEach(t -> t.notifyCheckpointCompleteAsync(checkpointId));
        }

        @Override
        public void notifyCheckpointAborted(long checkpointId) {
            current.tasks.forEach(t -> t.notifyCheckpointAbortedAsync(checkpointId));
        }

        @Override
        public void failJob(Throwable cause) {
            current.fail(cause);
        }

        /** Tasks in other processes learn where checkpoint {@code checkpointId} goes before its barrier. */
        private void announce(long checkpointId) {
            try {
                executors.announceCheckpoint(checkpointId, checkpoints.locationOf(checkpointId));
            } catch (IOException e) {
                LOG.debug("Job '{}': checkpoint {} is not pending any more: {}", job.getJobName(), checkpointId,
                        e.getMessage());
            }
        }
    }

    /** One deployment of the job's tasks; a restart makes a new one. */
    private final class Attempt implements StreamTask.TaskListener {
        final int number;
        final CompletedCheckpoint restoredFrom;
        final Map<String, SourceCoordinator<?, ?>> coordinators = new HashMap<>();
        final Map<SourceCoordinator<?, ?>, byte[]> coordinatorCheckpoints = new HashMap<>();
        /** Grows while an adaptive BATCH attempt deploys vertex after vertex, read by other threads meanwhile. */
        final List<DeployedTask> tasks = new java.util.concurrent.CopyOnWriteArrayList<>();
        final List<DeployedTask> sources = new java.util.concurrent.CopyOnWriteArrayList<>();
        final Map<DeployedTask, JobVertex> vertexOf = new java.util.concurrent.ConcurrentHashMap<>();
        /** Where each vertex deployed so far runs. */
        final Map<String, List<TaskLocation>> locations = new java.util.concurrent.ConcurrentHashMap<>();
        Map<String, Integer> slotOffsets;
        List<TaskLocation> slotLocations;
        Map<String, OperatorState> assigned;
        final AtomicInteger running = new AtomicInteger();
        final AtomicInteger finished = new AtomicInteger();
        final AtomicInteger endedInput = new AtomicInteger();
        final AtomicInteger restored = new AtomicInteger();
        final AttemptFailures failure = new AttemptFailures();
        final Map<String, Accumulator<?, ?>> accumulators = new HashMap<>();
        volatile boolean started;

        Attempt(int number, CompletedCheckpoint restoredFrom) {
            this.number = number;
            this.restoredFrom = restoredFrom;
        }

        void fail(Throwable cause) {
            if (!failure.add(cause, System.currentTimeMillis())) {
                return;
            }
            if (this == current && !(cause instanceof TaskCancelledException)) {
                synchronized (failures) {
                    failures.addLast(failure);
                    while (failures.size() > 32) {
                        failures.removeFirst();
                    }
                }
            }
            attemptFailed(this, cause);
        }

        @Override
        public void onFinished(DeployedTask task, Map<String, Accumulator<?, ?>> taskAccumulators) {
            finished.incrementAndGet();
            synchronized (accumulators) {
                mergeAccumulators(taskAccumulators);
            }
            if (adaptive != null) {
                deployReady(this, task);
            }
            taskEnded();
        }

        @Override
        public void onRestored(DeployedTask task) {
            if (restored.incrementAndGet() == tasks.size()) {
                discardHandover(restoredFrom);
            }
        }

        @Override
        public void onEndOfInput(DeployedTask task) {
            if (adaptive != null) {
                // A BATCH task hands its finished output on at once: its consumers start only when it finished.
                task.releaseAfterEndAsync();
                return;
            }
            // Checkpoints whose barrier this task will never see (its inputs ended without it) get its final state.
            for (CheckpointCoordinator.Trigger pending : checkpoints.pendingTriggers()) {
                try {
                    executors.announceCheckpoint(pending.checkpointId(), checkpoints.locationOf(pending.checkpointId()));
                } catch (IOException e) {
                    continue; // completed or aborted meanwhile
                }
                task.triggerCheckpointAsync(pending.checkpointId(), pending.timestamp(), pending.options());
            }
            if (endedInput.incrementAndGet() == tasks.size() && this == current && failure.cause() == null) {
                if (checkpointConfig.isCheckpointingEnabled()) {
                    checkpoints.triggerFinalCheckpoint();
                } else {
                    tasks.forEach(DeployedTask::releaseAfterEndAsync);
                }
            }
        }

        @Override
        public void onFailed(DeployedTask task, Throwable cause) {
            boolean shown = false;
            if (cause instanceof TaskCancellationTimeoutException stuck) {
                // A task that ignored its cancellation: the attempt's own failure stays its cause (it must not
                // rank above it, since the cancellation follows from it) and shows this one.
                LOG.error("Job '{}' ({}): {}", job.getJobName(), jobId, stuck.getMessage());
                Throwable first = failure.cause();
                if (first != null) {
                    first.addSuppressed(stuck);
                    shown = true;
                }
            }
            if (!shown && (!(cause instanceof TaskCancelledException) || failure.cause() == null)) {
                fail(cause);
            }
            taskEnded();
        }

        private void taskEnded() {
            if (running.decrementAndGet() == 0) {
                attemptEnded(this);
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
                            + existing.getClass().getName() + " in one subtask and "
                            + entry.getValue().getClass().getName() + " in another"));
                } else {
                    existing.merge((Accumulator) entry.getValue());
                }
            }
        }
    }
}
