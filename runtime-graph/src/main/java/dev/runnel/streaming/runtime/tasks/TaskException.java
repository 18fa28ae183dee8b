package dev.runnel.streaming.runtime.tasks;

/** A failure of a task outside a record's processing (startup, a timer, a mail, shutdown). */
public class TaskException extends Exception {

    private static final long serialVersionUID = 1L;

    public TaskException(String message, Throwable cause) {
        super(message, cause);
    }
}
