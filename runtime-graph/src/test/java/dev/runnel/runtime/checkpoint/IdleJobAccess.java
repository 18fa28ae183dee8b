package dev.runnel.runtime.checkpoint;

import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * What a checkpoint coordinator under test sees of a job: every task runs; triggers and notifications go nowhere,
 * so a test acknowledges or declines for the tasks itself (or nothing ever comes).
 */
final class IdleJobAccess implements CheckpointCoordinator.JobAccess {
    @Override
    public boolean allTasksRunning() {
        return true;
    }

    @Override
    public void triggerSources(long checkpointId, long timestamp, CheckpointOptions options, boolean stop,
            boolean drain) {}

    @Override
    public void triggerFinal(long checkpointId, long timestamp, CheckpointOptions options) {}

    @Override
    public void releaseEndedTasks() {}

    @Override
    public void reopenCoordinators(long checkpointId) {}

    @Override
    public Map<String, CompletableFuture<byte[]>> snapshotCoordinators(long checkpointId) {
        return Map.of();
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) {}

    @Override
    public void notifyCheckpointAborted(long checkpointId) {}

    @Override
    public void failJob(Throwable cause) {}
}
