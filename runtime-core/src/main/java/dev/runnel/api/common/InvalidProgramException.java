package dev.runnel.api.common;

/**
 * A job that cannot run as written: detected while the job graph is built, before any record flows.
 * The message says what is wrong, where, and how to fix it.
 */
public class InvalidProgramException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public InvalidProgramException(String message) {
        super(message);
    }

    public InvalidProgramException(String message, Throwable cause) {
        super(message, cause);
    }
}
