package dev.runnel.runtime.checkpoint;

/** A checkpoint failed: declined by a task, expired, or could not be written. The message says which and why. */
public final class CheckpointException extends Exception {

    private static final long serialVersionUID = 1L;

    public CheckpointException(String message, Throwable cause) {
        super(message, cause);
    }
}
