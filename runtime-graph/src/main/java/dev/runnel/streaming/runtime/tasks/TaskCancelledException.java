package dev.runnel.streaming.runtime.tasks;

/** The task was cancelled (the job failed elsewhere or was stopped); not a failure of its own. */
public final class TaskCancelledException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public TaskCancelledException(String message) {
        super(message);
    }
}
