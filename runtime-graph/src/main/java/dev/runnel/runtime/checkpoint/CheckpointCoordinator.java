package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.jobgraph.ChainedOperator;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.streaming.runtime.tasks.CheckpointMetrics;
import dev.runnel.streaming.runtime.tasks.CheckpointResponder;
import dev.runnel.streaming.runtime.tasks.TaskNotRunningException;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes the checkpoints of one job: triggers them at the configured interval (respecting the minimum pause
 * and the bound on concurrent checkpoints), snapshots the source coordinators, injects barriers at the
 * source tasks, collects every task's acknowledgement, writes the metadata last, retains the completed
 * checkpoint and tells the tasks; gives up checkpoints that are declined or time out, deleting what they
 * wrote, and fails the job when more fail in a row than are tolerated.
 *
 * <p>The job tells it which tasks run now ({@link JobAccess}); after a restart it starts over with the new
 * tasks. Thread-safe: its own timer thread triggers, tasks' threads acknowledge; state changes happen under
 * one lock, file and task calls outside it where they could block.
 */
public final class CheckpointCoordinator implements CheckpointResponder, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CheckpointCoordinator.class);

    /** What the coordinator needs of the running job. */
    public interface JobAccess {

        /** Whether every task of the current attempt runs (none finished, none failed); checkpoints wait otherwise. */
        boolean allTasksRunning();

        /**
         * Injects the barrier of checkpoint {@code checkpointId} at every source task; for stop-with-savepoint
         * the sources first emit the maximum watermark ({@code drain}) and then pause ({@code stop}).
         */
        void triggerSources(long checkpointId, long timestamp, CheckpointOptions options, boolean stop,
                boolean drain);

        /** Asks every task, all at the end of their input, for the final checkpoint {@code checkpointId}. */
        void triggerFinal(long checkpointId, long timestamp, CheckpointOptions options);

        /** The final checkpoint completed: the tasks waiting at the end of their input may close. */
        void releaseEndedTasks();

        /** The checkpoint's barriers are injected (or it was given up): coordinators may talk to readers again. */
        void reopenCoordinators(long checkpointId);

        /** Snapshots every source coordinator, by the source operator's id (bytes may be null for none). */
        Map<String, CompletableFuture<byte[]>> snapshotCoordinators(long checkpointId);

        void notifyCheckpointComplete(long checkpointId);

        void notifyCheckpointAborted(long checkpointId);

        /** More checkpoints failed in a row than tolerated. */
        void failJob(Throwable cause);
    }

    /** How long {@link #close()} waits for a trigger in progress (one blocked on a source coordinator). */
    private static final long CLOSE_WAIT_SECONDS = 10;

    private final String jobId;
    private final JobGraph job;
    private final CheckpointCoordinatorConfiguration config;
    private final CheckpointStorageAccess storage;
    private final CompletedCheckpointStore store;
    private final JobAccess access;
    private final ScheduledExecutorService timer;
    private final Object lock = new Object();
    private final Map<Long, PendingCheckpoint> pending = new TreeMap<>();
    /** Rescale handovers given up: a late acknowledgement's state is deleted at once. Guarded by {@link #lock}. */
    private final java.util.Set<Long> abandonedHandovers = new java.util.HashSet<>();
    private final Deque<CheckpointStats> history = new ArrayDeque<>();
    private long nextCheckpointId;
    private long lastCompletionNanos;
    private int consecutiveFailures;
    private long completedCount;
    private long failedCount;
    private ScheduledFuture<?> periodic;
    private boolean shutdown;
    /** The timer's one thread (null before it started): {@link #close()} waits for it unless it runs on it. */
    private volatile Thread timerThread;

    public CheckpointCoordinator(String jobId, JobGraph job, CheckpointCoordinatorConfiguration config,
            CheckpointStorageAccess storage, CompletedCheckpointStore store, long firstCheckpointId, JobAccess access) {
        this.jobId = jobId;
        this.job = job;
        this.config = config;
        this.storage = storage;
        this.store = store;
        this.access = access;
        this.nextCheckpointId = firstCheckpointId;
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "checkpoint-coordinator-" + job.getJobName());
            t.setDaemon(true);
            timerThread = t;
            return t;
        });
        this.lastCompletionNanos = System.nanoTime() - TimeUnit.MILLISECONDS.toNanos(config.getMinPauseBetweenCheckpoints());
    }

    /** Starts triggering periodic checkpoints (if the job takes them), the first after a random initial delay. */
    public void startCheckpointScheduler() {
        synchronized (lock) {
            if (shutdown || periodic != null || !config.isCheckpointingEnabled()) {
                return;
            }
            long interval = config.getCheckpointInterval();
            // As Flink: the first checkpoint comes after a random delay between the minimum pause and the
            // interval, so that jobs started together do not checkpoint in lockstep.
            long minPause = Math.min(config.getMinPauseBetweenCheckpoints(), interval);
            long initialDelay = java.util.concurrent.ThreadLocalRandom.current().nextLong(minPause, interval + 1);
            periodic = timer.scheduleAtFixedRate(this::triggerPeriodic, initialDelay, interval, TimeUnit.MILLISECONDS);
        }
    }

    /** Stops periodic checkpoints and gives up the pending ones (a restart, or the job's end). */
    public void stopCheckpointScheduler(String reason) {
        List<PendingCheckpoint> aborted;
        synchronized (lock) {
            if (periodic != null) {
                periodic.cancel(false);
                periodic = null;
            }
            aborted = new ArrayList<>(pending.values());
            pending.clear();
        }
        for (PendingCheckpoint checkpoint : aborted) {
            dispose(checkpoint, reason, false);
        }
    }

    private void triggerPeriodic() {
        try {
            triggerCheckpoint(checkpointOptions(), storage::initializeLocationForCheckpoint, false, false, false, false);
        } catch (Throwable t) {
            LOG.warn("Job {}: could not trigger a checkpoint: {}", job.getJobName(), t.toString());
        }
    }

    /**
     * Every task reached the end of its input: takes the final checkpoint now, so that what the operators
     * emitted at the end (a sink's last files) is committed. Periodic checkpoints stop; a final checkpoint that
     * fails is taken again (failures count against the tolerated ones). Thread-safe.
     */
    public void triggerFinalCheckpoint() {
        synchronized (lock) {
            if (periodic != null) {
                periodic.cancel(false);
                periodic = null;
            }
        }
        timer.execute(() -> {
            try {
                triggerCheckpoint(CheckpointOptions.checkpoint(config.isExactlyOnce()),
                        storage::initializeLocationForCheckpoint, true, true, false, false);
            } catch (Throwable t) {
                access.failJob(t);
            }
        });
    }

    /**
     * Takes a savepoint in {@code format} into {@code targetDirectory} (null: the configured savepoint
     * directory) now. For stop-with-savepoint ({@code stop}) the sources read nothing after its barrier, and
     * with {@code drain} they first emit the maximum watermark. The future completes with the savepoint, or
     * fails (the job then goes on). A savepoint is the user's: it is neither retained nor ever deleted here.
     */
    public CompletableFuture<CompletedCheckpoint> triggerSavepoint(String targetDirectory,
            dev.runnel.core.execution.SavepointFormatType format, boolean stop, boolean drain) {
        return triggerCheckpoint(CheckpointOptions.savepoint(format),
                id -> storage.initializeLocationForSavepoint(id, targetDirectory), true, false, stop, drain);
    }

    /**
     * The snapshot of an in-place rescale: a stop-with-savepoint whose blobs stay byte arrays, written nowhere.
     * With {@code localHandover} (every task runs in this process) it is {@link CheckpointOptions#rescaleHandover()
     * a handover}: stores may leave their files on local disk and hand over their paths (RocksDB), and the caller
     * discards its state ({@link CompletedCheckpoint#discardExclusiveState()}) once the new tasks restored (a
     * handover given up is discarded here). Otherwise a CANONICAL savepoint, which restores anywhere.
     */
    public CompletableFuture<CompletedCheckpoint> triggerRescaleSnapshot(boolean localHandover) {
        CheckpointOptions options = localHandover ? CheckpointOptions.rescaleHandover()
                : CheckpointOptions.savepoint(dev.runnel.core.execution.SavepointFormatType.CANONICAL);
        return triggerCheckpoint(options, MemoryCheckpointStorageLocation::new, true, false, true, false);
    }

    /** Where a checkpoint with a given id is written. */
    @FunctionalInterface
    private interface LocationFactory {
        CheckpointStorageLocation create(long checkpointId) throws IOException;
    }

    /** A checkpoint now, outside the schedule (tests, tools); the future as for periodic ones. */
    public CompletableFuture<CompletedCheckpoint> triggerCheckpoint() {
        return triggerCheckpoint(checkpointOptions(), storage::initializeLocationForCheckpoint, true, false, false,
                false);
    }

    /**
     * A periodic or manual checkpoint's options: unaligned when configured (and exactly once), starting aligned
     * when an aligned checkpoint timeout is set. Savepoints are always aligned, and so is the final checkpoint,
     * whose tasks have no input left to overtake.
     */
    private CheckpointOptions checkpointOptions() {
        return CheckpointOptions.checkpoint(config.isExactlyOnce(), config.isUnalignedCheckpointsEnabled(),
                config.getAlignedCheckpointTimeout());
    }

    /**
     * Triggers a checkpoint (or a savepoint) into the location {@code locations} makes for its id now. The
     * future completes with the completed checkpoint, or exceptionally when it is declined, times out, or
     * cannot start. A periodic trigger ({@code force} false) is skipped, not failed, while the minimum pause
     * or the concurrency bound forbids one; the returned future then completes with null.
     */
    private CompletableFuture<CompletedCheckpoint> triggerCheckpoint(CheckpointOptions options, LocationFactory locations,
            boolean force, boolean isFinal, boolean stop, boolean drain) {
        long id;
        long timestamp = System.currentTimeMillis();
        synchronized (lock) {
            if (shutdown) {
                return CompletableFuture.failedFuture(new IllegalStateException("the checkpoint coordinator is shut down"));
            }
            if (!force) {
                long sinceLast = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - lastCompletionNanos);
                if (pending.size() >= config.getMaxConcurrentCheckpoints()
                        || sinceLast < config.getMinPauseBetweenCheckpoints()) {
                    return CompletableFuture.completedFuture(null);
                }
            }
            if (!isFinal && !access.allTasksRunning()) {
                LOG.debug("Job {}: checkpoint skipped, not every task is running", job.getJobName());
                return force ? CompletableFuture.failedFuture(new IllegalStateException(
                        "Not every task of job '" + job.getJobName() + "' is running; a checkpoint needs all of them"))
                        : CompletableFuture.completedFuture(null);
            }
            id = nextCheckpointId++;
        }
        CheckpointStorageLocation location;
        try {
            location = locations.create(id);
        } catch (IOException | RuntimeException e) {
            IOException failure = new IOException((options.isSavepoint() ? "Savepoint " : "Checkpoint ") + id
                    + " of job '" + job.getJobName() + "' could not create its folder: " + e.getMessage(), e);
            LOG.warn("{}", failure.getMessage());
            if (!options.isSavepoint()) {
                // as Flink: a failed savepoint is the caller's to see, not a checkpoint failure of the job
                countFailure(failure);
            }
            return CompletableFuture.failedFuture(failure);
        }
        PendingCheckpoint checkpoint = new PendingCheckpoint(id, timestamp, options, location, isFinal);
        boolean closed;
        synchronized (lock) {
            closed = shutdown;
            if (!closed) {
                pending.put(id, checkpoint);
            }
        }
        if (closed) {
            // The job ended while the folder was made: close() gave up what was pending and will not see this one.
            dispose(checkpoint, "the job ended", false);
            return checkpoint.result;
        }
        try {
            checkpoint.timeout = timer.schedule(() -> abort(id, new CheckpointException("Checkpoint " + id + " of job '"
                    + job.getJobName() + "' expired before completing (" + config.getCheckpointTimeout()
                    + " ms, execution.checkpointing.timeout)", null), true), config.getCheckpointTimeout(),
                    TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.RejectedExecutionException closing) {
            // close() shut the timer down after this checkpoint registered; it gives the checkpoint up
            return checkpoint.result;
        }
        try {
            Map<String, CompletableFuture<byte[]>> coordinators = access.snapshotCoordinators(id);
            for (Map.Entry<String, CompletableFuture<byte[]>> entry : coordinators.entrySet()) {
                byte[] bytes = entry.getValue().get(config.getCheckpointTimeout(), TimeUnit.MILLISECONDS);
                if (bytes != null) {
                    checkpoint.coordinatorStates.put(entry.getKey(),
                            new ByteStreamStateHandle("coordinator state of " + entry.getKey() + ", checkpoint " + id, bytes));
                }
            }
        } catch (Exception e) {
            Throwable cause = e instanceof java.util.concurrent.ExecutionException ? e.getCause() : e;
            access.reopenCoordinators(id);
            abort(id, new CheckpointException("Checkpoint " + id + ": a source coordinator could not snapshot: " + cause,
                    cause), true);
            return checkpoint.result;
        }
        try {
            if (isFinal) {
                access.triggerFinal(id, timestamp, options);
            } else {
                access.triggerSources(id, timestamp, options, stop, drain);
            }
        } finally {
            access.reopenCoordinators(id);
        }
        return checkpoint.result;
    }

    // ------------------------------------------------------------------ CheckpointResponder

    @Override
    public boolean isPeriodicCheckpointingEnabled() {
        return config.isCheckpointingEnabled();
    }

    @Override
    public CheckpointStreamFactory streamFactory(long checkpointId) throws IOException {
        return locationOf(checkpointId);
    }

    /** Where pending checkpoint {@code checkpointId} is written; fails when it is not pending (any more). */
    public CheckpointStorageLocation locationOf(long checkpointId) throws IOException {
        synchronized (lock) {
            PendingCheckpoint checkpoint = pending.get(checkpointId);
            if (checkpoint == null) {
                throw new IOException("Checkpoint " + checkpointId + " is not pending any more (completed, aborted,"
                        + " or from before a restart)");
            }
            return checkpoint.location;
        }
    }

    @Override
    public void acknowledgeCheckpoint(String vertexId, int subtask, long checkpointId,
            Map<String, OperatorSubtaskState> operatorStates, CheckpointMetrics metrics) {
        PendingCheckpoint complete;
        synchronized (lock) {
            PendingCheckpoint checkpoint = pending.get(checkpointId);
            if (checkpoint == null) {
                LOG.debug("Job {}: late acknowledgement of checkpoint {} by {}#{} dropped", job.getJobName(),
                        checkpointId, vertexId, subtask);
                complete = null;
            } else {
                checkpoint.acknowledge(vertexId + "#" + subtask, subtask, operatorStates, metrics);
                if (checkpoint.acks.size() < job.getTotalSubtasks()) {
                    return;
                }
                pending.remove(checkpointId);
                complete = checkpoint;
            }
        }
        if (complete == null) {
            // The checkpoint was given up while this subtask wrote; what it uploaded to shared/ is nobody's.
            discardUnregisteredSharedState(operatorStates.values());
            boolean abandonedHandover;
            synchronized (lock) {
                abandonedHandover = abandonedHandovers.contains(checkpointId);
            }
            if (abandonedHandover) {
                discardAll(new ArrayList<>(operatorStates.values()));
            }
            return;
        }
        complete(complete);
    }

    @Override
    public void declineCheckpoint(String vertexId, int subtask, long checkpointId, Throwable cause) {
        abort(checkpointId, new CheckpointException("Checkpoint " + checkpointId + " was declined by " + vertexId + "#"
                + subtask + ": " + cause.getMessage(), cause), !(cause instanceof TaskNotRunningException));
    }

    // ------------------------------------------------------------------ completion and failure

    private void complete(PendingCheckpoint checkpoint) {
        checkpoint.timeout.cancel(false);
        long id = checkpoint.id;
        try {
            CompletedCheckpoint completed = new CompletedCheckpoint(jobId, id, checkpoint.timestamp,
                    System.currentTimeMillis(), operatorStates(checkpoint),
                    checkpoint.options.isSavepoint() ? CheckpointProperties.savepoint(checkpoint.options.getSavepointFormat())
                            : CheckpointProperties.CHECKPOINT,
                    checkpoint.location.getExternalPointer());
            if (!checkpoint.options.isSavepoint()) {
                // The metadata must name the shared files the registry keeps, so registration comes first.
                completed.registerSharedStates(store.getSharedStateRegistry());
            }
            checkpoint.location.writeMetadata(completed);
            if (!checkpoint.options.isSavepoint()) {
                store.addCheckpointAndSubsumeOldestOne(completed);
            }
            CheckpointStats stats = CheckpointStats.of(completed, checkpoint.metrics);
            List<PendingCheckpoint> subsumed = new ArrayList<>();
            synchronized (lock) {
                lastCompletionNanos = System.nanoTime();
                consecutiveFailures = 0;
                completedCount++;
                record(stats);
                if (!checkpoint.options.isSavepoint()) {
                    for (PendingCheckpoint older : new ArrayList<>(pending.values())) {
                        if (older.id < id && !older.options.isSavepoint()) {
                            pending.remove(older.id);
                            subsumed.add(older);
                        }
                    }
                }
            }
            for (PendingCheckpoint older : subsumed) {
                dispose(older, "subsumed by checkpoint " + id, false);
            }
            LOG.info("Job {}: completed {} {} ({} bytes in {} ms, sync {} ms, async {} ms, alignment {} ms)",
                    job.getJobName(), checkpoint.options.isSavepoint() ? "savepoint" : "checkpoint", id,
                    stats.stateSize(), stats.endToEndMillis(), stats.maxSyncMillis(), stats.maxAsyncMillis(),
                    stats.maxAlignmentMillis());
            access.notifyCheckpointComplete(id);
            if (checkpoint.isFinal) {
                access.releaseEndedTasks();
            }
            checkpoint.result.complete(completed);
        } catch (Exception e) {
            CheckpointException failure = new CheckpointException("Checkpoint " + id + " of job '" + job.getJobName()
                    + "' could not be finalized in " + checkpoint.location.getExternalPointer() + ": " + e.getMessage(), e);
            LOG.warn("{}", failure.getMessage());
            dispose(checkpoint, failure.getMessage(), true);
            checkpoint.result.completeExceptionally(failure);
            if (!checkpoint.options.isSavepoint()) {
                countFailure(failure);
            }
        }
    }

    /**
     * Deletes the shared files an abandoned checkpoint uploaded that no retained checkpoint registered: the
     * checkpoint's folder goes with {@code disposeOnFailure}, but its new SST files live in {@code shared/}.
     */
    private void discardUnregisteredSharedState(java.util.Collection<OperatorSubtaskState> states) {
        dev.runnel.runtime.state.SharedStateRegistry registry = store.getSharedStateRegistry();
        for (OperatorSubtaskState state : states) {
            for (KeyedStateHandle handle : state.managedKeyedState()) {
                if (handle instanceof IncrementalRemoteKeyedStateHandle incremental) {
                    for (IncrementalRemoteKeyedStateHandle.HandleAndLocalPath file : incremental.getSharedState()) {
                        if (registry.getRegisteredHandle(incremental.registryKey(file.localPath())) == null) {
                            try {
                                file.handle().discardState();
                            } catch (IOException e) {
                                LOG.warn("Job {}: could not delete {}: {}", job.getJobName(), file.handle().describe(),
                                        e.toString());
                            }
                        }
                    }
                }
            }
        }
    }

    private Map<String, OperatorState> operatorStates(PendingCheckpoint checkpoint) {
        Map<String, OperatorState> states = new LinkedHashMap<>();
        for (JobVertex vertex : job.getVertices()) {
            for (ChainedOperator operator : vertex.getOperators()) {
                String operatorId = operator.getConfig().operatorId();
                Map<Integer, OperatorSubtaskState> subtasks = checkpoint.states.getOrDefault(operatorId, Map.of());
                StreamStateHandle coordinator = checkpoint.coordinatorStates.get(operatorId);
                if (!subtasks.isEmpty() || coordinator != null) {
                    states.put(operatorId, new OperatorState(operatorId, vertex.getParallelism(),
                            vertex.getMaxParallelism(), subtasks, coordinator));
                }
            }
        }
        return states;
    }

    private void abort(long checkpointId, CheckpointException cause, boolean countsAsFailure) {
        PendingCheckpoint checkpoint;
        synchronized (lock) {
            checkpoint = pending.remove(checkpointId);
        }
        if (checkpoint == null) {
            return;
        }
        LOG.warn("Job {}: {}", job.getJobName(), cause.getMessage());
        dispose(checkpoint, cause.getMessage(), true);
        checkpoint.result.completeExceptionally(cause);
        if ((countsAsFailure || checkpoint.isFinal) && !checkpoint.options.isSavepoint()) {
            countFailure(cause);
        }
        if (checkpoint.isFinal) {
            boolean again;
            synchronized (lock) {
                again = !shutdown;
            }
            if (again) {
                triggerFinalCheckpoint();
            }
        }
    }

    /** Deletes what a checkpoint that will not complete wrote, and tells the tasks. */
    private void dispose(PendingCheckpoint checkpoint, String reason, boolean notifyTasks) {
        if (checkpoint.timeout != null) {
            checkpoint.timeout.cancel(false);
        }
        List<OperatorSubtaskState> written = new ArrayList<>();
        synchronized (lock) {
            checkpoint.states.values().forEach(bySubtask -> written.addAll(bySubtask.values()));
        }
        discardUnregisteredSharedState(written);
        if (checkpoint.options.isLocalHandover()) {
            // No folder of the storage holds a handover's state: local files handed over by path are its own,
            // also those of acknowledgements that arrive after this.
            synchronized (lock) {
                abandonedHandovers.add(checkpoint.id);
            }
            discardAll(written);
        }
        try {
            checkpoint.location.disposeOnFailure();
        } catch (IOException e) {
            LOG.warn("Job {}: could not delete the files of given-up checkpoint {} in {}: {}", job.getJobName(),
                    checkpoint.id, checkpoint.location.getExternalPointer(), e.toString());
        }
        if (!checkpoint.result.isDone()) {
            checkpoint.result.completeExceptionally(new CheckpointException("Checkpoint " + checkpoint.id
                    + " was given up: " + reason, null));
        }
        if (notifyTasks) {
            access.notifyCheckpointAborted(checkpoint.id);
        }
    }

    private void discardAll(List<OperatorSubtaskState> states) {
        for (OperatorSubtaskState state : states) {
            try {
                state.discardState();
            } catch (IOException e) {
                LOG.warn("Job {}: could not delete the state of a given-up rescale handover: {}", job.getJobName(),
                        e.toString());
            }
        }
    }

    private void countFailure(Throwable cause) {
        boolean exceeded;
        synchronized (lock) {
            failedCount++;
            consecutiveFailures++;
            exceeded = consecutiveFailures > config.getTolerableCheckpointFailureNumber();
        }
        if (exceeded) {
            access.failJob(new CheckpointException("Exceeded checkpoint tolerable failure threshold: "
                    + consecutiveFailures + " checkpoints failed in a row, "
                    + config.getTolerableCheckpointFailureNumber()
                    + " are tolerated (execution.checkpointing.tolerable-failed-checkpoints). Last: " + cause.getMessage(),
                    cause));
        }
    }

    private void record(CheckpointStats stats) {
        history.addLast(stats);
        while (history.size() > 100) {
            history.removeFirst();
        }
    }

    /** Statistics of the last completed checkpoints, oldest first. */
    public List<CheckpointStats> getCheckpointStats() {
        synchronized (lock) {
            return List.copyOf(history);
        }
    }

    public long getNumberOfCompletedCheckpoints() {
        synchronized (lock) {
            return completedCount;
        }
    }

    public long getNumberOfFailedCheckpoints() {
        synchronized (lock) {
            return failedCount;
        }
    }

    public CompletedCheckpointStore getCheckpointStore() {
        return store;
    }

    public CheckpointStorageAccess getCheckpointStorage() {
        return storage;
    }

    /**
     * Gives up every pending checkpoint (its folder is deleted) and stops the timer. Returns once no trigger or
     * timeout of this coordinator runs any more (bounded by {@link #CLOSE_WAIT_SECONDS}), so that nothing it
     * started changes the checkpoint folders after the job's result is out. Idempotent; any thread.
     */
    @Override
    public void close() {
        synchronized (lock) {
            shutdown = true;
        }
        stopCheckpointScheduler("the job ended");
        timer.shutdownNow();
        if (Thread.currentThread() == timerThread) {
            return;
        }
        try {
            if (!timer.awaitTermination(CLOSE_WAIT_SECONDS, TimeUnit.SECONDS)) {
                LOG.warn("Job {}: a checkpoint trigger still runs {} s after the job ended", job.getJobName(),
                        CLOSE_WAIT_SECONDS);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** What a task needs to take a pending checkpoint: its id, trigger time and options. */
    public record Trigger(long checkpointId, long timestamp, CheckpointOptions options) {}

    /** The checkpoints triggered and not yet completed or given up, oldest first. Thread-safe. */
    public List<Trigger> pendingTriggers() {
        synchronized (lock) {
            List<Trigger> triggers = new ArrayList<>();
            for (PendingCheckpoint checkpoint : pending.values()) {
                triggers.add(new Trigger(checkpoint.id, checkpoint.timestamp, checkpoint.options));
            }
            return triggers;
        }
    }

    /** A checkpoint waiting for acknowledgements. Guarded by the coordinator's lock. */
    private static final class PendingCheckpoint {
        final long id;
        final long timestamp;
        final CheckpointOptions options;
        final CheckpointStorageLocation location;
        final Map<String, StreamStateHandle> coordinatorStates = new HashMap<>();
        final Map<String, Map<Integer, OperatorSubtaskState>> states = new HashMap<>();
        final Map<String, CheckpointMetrics> acks = new HashMap<>();
        final List<CheckpointMetrics> metrics = new ArrayList<>();
        final CompletableFuture<CompletedCheckpoint> result = new CompletableFuture<>();
        final boolean isFinal;
        ScheduledFuture<?> timeout;

        PendingCheckpoint(long id, long timestamp, CheckpointOptions options, CheckpointStorageLocation location,
                boolean isFinal) {
            this.isFinal = isFinal;
            this.id = id;
            this.timestamp = timestamp;
            this.options = options;
            this.location = location;
        }

        void acknowledge(String task, int subtask, Map<String, OperatorSubtaskState> operatorStates,
                CheckpointMetrics taskMetrics) {
            if (acks.putIfAbsent(task, taskMetrics) != null) {
                return;
            }
            metrics.add(taskMetrics);
            operatorStates.forEach((operatorId, state) ->
                    states.computeIfAbsent(operatorId, k -> new HashMap<>()).put(subtask, state));
        }
    }
}
