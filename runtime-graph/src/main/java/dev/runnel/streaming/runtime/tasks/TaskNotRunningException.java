package dev.runnel.streaming.runtime.tasks;

/**
 * A task declined a checkpoint because it is not running (its input ended, or it has not started): not a
 * failure of the checkpoint mechanism, so it does not count against the tolerated checkpoint failures.
 */
public final class TaskNotRunningException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    public TaskNotRunningException(String message) {
        super(message);
    }
}
