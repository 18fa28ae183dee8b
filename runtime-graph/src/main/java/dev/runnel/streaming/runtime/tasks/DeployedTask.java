package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.checkpoint.CheckpointOptions;

/**
 * A subtask as the master of its job sees it, wherever it runs: in this JVM it is the {@link StreamTask}
 * itself, in a cluster a handle whose calls travel to the TaskManager that runs it. Every method returns at
 * once and is thread-safe; what the task does in answer arrives later through its {@link StreamTask.TaskListener}
 * and the job's checkpoint responder.
 */
public interface DeployedTask {

    /** Starts the task. */
    void start();

    /** Stops the task; it reports itself failed with a cancellation (see {@link StreamTask#cancel()}). */
    void cancel();

    /** Whether the task reported the end of its input (it then snapshots without barriers). */
    boolean hasEndedInput();

    /** See {@link StreamTask#triggerCheckpointAsync(long, long, CheckpointOptions, boolean, boolean)}. */
    void triggerCheckpointAsync(long checkpointId, long timestamp, CheckpointOptions options, boolean stop,
            boolean drain);

    default void triggerCheckpointAsync(long checkpointId, long timestamp, CheckpointOptions options) {
        triggerCheckpointAsync(checkpointId, timestamp, options, false, false);
    }

    void notifyCheckpointCompleteAsync(long checkpointId);

    void notifyCheckpointAbortedAsync(long checkpointId);

    /** See {@link StreamTask.TaskListener#onEndOfInput}. */
    void releaseAfterEndAsync();

    /** {@code vertex name (i/n)}, for log lines and errors. */
    String describe();
}
