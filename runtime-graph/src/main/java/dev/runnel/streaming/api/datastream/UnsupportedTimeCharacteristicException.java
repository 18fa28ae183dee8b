package dev.runnel.streaming.api.datastream;

/** An operation was asked for in a notion of time it does not support (an interval join in processing time). */
public class UnsupportedTimeCharacteristicException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public UnsupportedTimeCharacteristicException(String message) {
        super(message);
    }
}
