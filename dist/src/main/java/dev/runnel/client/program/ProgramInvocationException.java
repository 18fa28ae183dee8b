package dev.runnel.client.program;

/**
 * A user's program could not be run: its jar is missing or unreadable, it names no main class, the class is
 * not there, or its {@code main} failed (the cause). The message says which, and what to do.
 */
public class ProgramInvocationException extends Exception {

    private static final long serialVersionUID = 1L;

    public ProgramInvocationException(String message) {
        super(message);
    }

    public ProgramInvocationException(String message, Throwable cause) {
        super(message, cause);
    }
}
