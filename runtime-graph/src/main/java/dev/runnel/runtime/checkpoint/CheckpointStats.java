package dev.runnel.runtime.checkpoint;

import dev.runnel.streaming.runtime.tasks.CheckpointMetrics;
import java.util.List;

/**
 * What one completed checkpoint cost: its size, the time from trigger to completion, and over its subtasks
 * the longest alignment, synchronous pause and asynchronous write (with the per-subtask figures). Immutable.
 */
public record CheckpointStats(long checkpointId, boolean savepoint, long triggerTimestamp, long endToEndMillis,
        long stateSize, long maxAlignmentMillis, long maxSyncMillis, long maxAsyncMillis,
        List<CheckpointMetrics> subtasks, String externalPointer) {

    static CheckpointStats of(CompletedCheckpoint checkpoint, List<CheckpointMetrics> subtasks) {
        long alignment = 0;
        long sync = 0;
        long async = 0;
        for (CheckpointMetrics metrics : subtasks) {
            alignment = Math.max(alignment, metrics.alignmentMillis());
            sync = Math.max(sync, metrics.syncMillis());
            async = Math.max(async, metrics.asyncMillis());
        }
        return new CheckpointStats(checkpoint.getCheckpointID(), checkpoint.getProperties().savepoint(),
                checkpoint.getTimestamp(), checkpoint.getCompletionTimestamp() - checkpoint.getTimestamp(),
                checkpoint.getStateSize(), alignment, sync, async, List.copyOf(subtasks), checkpoint.getExternalPointer());
    }
}
