package dev.runnel.runtime.partitioner;

/**
 * A key selector threw or returned null. The task that catches it adds the operator name, subtask
 * index and record before failing the job.
 */
public final class KeyExtractionException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public KeyExtractionException(String message, Throwable cause) {
        super(message, cause);
    }
}
