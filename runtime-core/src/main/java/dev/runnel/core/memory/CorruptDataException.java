package dev.runnel.core.memory;

import java.io.IOException;

/**
 * Serialized bytes that cannot be what they claim to be: a length beyond the data, an unknown tag, a
 * malformed encoding. The message names the position and what was wrong.
 */
public class CorruptDataException extends IOException {

    private static final long serialVersionUID = 1L;

    public CorruptDataException(String message) {
        super(message);
    }

    public CorruptDataException(String message, Throwable cause) {
        super(message, cause);
    }
}
