package dev.runnel.client.cli;

/** A command failed in a way its message explains fully: printed without a stack trace, exit status 1. */
final class CliException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    CliException(String message) {
        super(message);
    }

    CliException(String message, Throwable cause) {
        super(message, cause);
    }
}
