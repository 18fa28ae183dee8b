package dev.runnel.api.common.functions;

import dev.runnel.api.common.InvalidProgramException;

/**
 * The types of a job cannot be determined or cannot be serialized as configured: a function's output
 * type is hidden by erasure, a type would fall back to Kryo while generic types are disabled, or a
 * class Kryo needs is not registered. The message names the type and says how to fix it (usually:
 * declare the type explicitly, or register the class).
 */
public class InvalidTypesException extends InvalidProgramException {

    private static final long serialVersionUID = 1L;

    public InvalidTypesException(String message) {
        super(message);
    }

    public InvalidTypesException(String message, Throwable cause) {
        super(message, cause);
    }
}
