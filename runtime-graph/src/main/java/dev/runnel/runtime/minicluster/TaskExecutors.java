package dev.runnel.runtime.minicluster;

import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.checkpoint.CheckpointStorageLocation;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.shuffle.TaskLocation;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.runtime.source.SourceCoordinatorProvider;
import dev.runnel.streaming.runtime.tasks.CheckpointResponder;
import dev.runnel.streaming.runtime.tasks.DeployedTask;
import dev.runnel.streaming.runtime.tasks.StreamTask;
import dev.runnel.streaming.runtime.tasks.TaskRestore;
import java.io.File;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Where the subtasks of one job run, as its {@link EmbeddedJob} (the job's master) sees them: the TaskManagers
 * of the embedded runtime in this JVM ({@link LocalTaskExecutors}), or TaskManager processes of a cluster
 * reached over the control plane. Each attempt of the job takes slots, deploys one task per subtask into
 * them (slot sharing: subtask i of every vertex of a group shares the group's slot i) and gives them back
 * when all its tasks stopped. Called from the job's threads; implementations are thread-safe.
 */
public interface TaskExecutors extends AutoCloseable {

    /**
     * What the tasks of one attempt report to, and run on, on the master's side.
     *
     * @param attempt the attempt's number, 0 first
     * @param checkpoints the job's checkpoint coordinator ({@link CheckpointResponder#NONE} without one)
     * @param coordinators the attempt's source coordinators
     * @param stateBackend where keyed state lives (a cluster's TaskManagers take it from the job graph)
     * @param metrics the job's metric group
     * @param timers the job's timer thread
     * @param asyncOperations runs the asynchronous parts of snapshots
     * @param workingDirectory the job's working files in this process
     */
    record AttemptServices(int attempt, CheckpointResponder checkpoints, SourceCoordinatorProvider coordinators,
            StateBackend stateBackend, MetricGroup metrics, ScheduledExecutorService timers, Executor asyncOperations,
            File workingDirectory) {}

    /** One subtask to deploy: its vertex, index, operators (serialized prototypes), placement and state. */
    record TaskSpec(JobVertex vertex, int subtask, List<byte[]> operators, TaskPlacement placement,
            TaskRestore restore) {}

    /**
     * Whether this runs every subtask of the job. False only when the job is split over processes without a
     * JobManager (a test launcher): the master then neither checkpoints nor restarts.
     */
    boolean runsWholeJob();

    /**
     * Whether every subtask runs in this process: then a file one task leaves on local disk can be read by any
     * other, and deleted here, which an in-place rescale uses to hand a RocksDB store's files over instead of
     * copying them ({@link dev.runnel.runtime.checkpoint.CheckpointOptions#rescaleHandover()}), and a BATCH job
     * to exchange data through files (blocking partitions) and size each vertex by the bytes it reads. False by
     * default: TaskManagers in other processes, maybe on other machines, get a canonical snapshot and run BATCH
     * jobs pipelined.
     */
    default boolean tasksShareThisProcess() {
        return false;
    }

    /**
     * Takes {@code slots} slots for attempt {@code services.attempt()} and gives the location of each (slot s
     * at index s). Waits for free slots at most as long as the implementation is configured to and then fails
     * with a message saying how many slots the job needs and how many there are.
     */
    List<TaskLocation> openAttempt(AttemptServices services, int slots) throws Exception;

    /**
     * Deploys one subtask into slot {@code slot} of the open attempt, not started yet; null when that slot is
     * run by another process (the split mode of {@link #runsWholeJob()}).
     */
    DeployedTask deploy(int slot, TaskSpec spec, StreamTask.TaskListener listener);

    /**
     * The state of checkpoint {@code checkpointId} goes to {@code location}; called before the checkpoint is
     * triggered, so tasks in other processes know where to write before the barrier reaches them.
     */
    default void announceCheckpoint(long checkpointId, CheckpointStorageLocation location) {}

    /** Every task of attempt {@code attempt} stopped: its slots are free again. */
    void closeAttempt(int attempt);

    /** The job ended: release everything. Idempotent. */
    @Override
    void close();
}
