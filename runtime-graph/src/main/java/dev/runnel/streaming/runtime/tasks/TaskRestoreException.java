package dev.runnel.streaming.runtime.tasks;

/**
 * A task could not read its state from the checkpoint it was restored from (a state file corrupt, truncated
 * or gone). The job drops that checkpoint and falls back to an earlier one on its next attempt.
 */
public final class TaskRestoreException extends Exception {

    private static final long serialVersionUID = 1L;

    private final long checkpointId;

    public TaskRestoreException(String message, long checkpointId, Throwable cause) {
        super(message, cause);
        this.checkpointId = checkpointId;
    }

    public long getCheckpointId() {
        return checkpointId;
    }
}
