package dev.runnel.api.common.eventtime;

import java.io.Serializable;

/**
 * A statement that event time has reached {@code timestamp}: no more records with a timestamp at or
 * below it are expected. Immutable.
 */
public final class Watermark implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The watermark that ends event time: it fires every remaining event-time timer. */
    public static final Watermark MAX_WATERMARK = new Watermark(Long.MAX_VALUE);

    private final long timestamp;

    public Watermark(long timestamp) {
        this.timestamp = timestamp;
    }

    public long getTimestamp() {
        return timestamp;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Watermark other && timestamp == other.timestamp;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(timestamp);
    }

    @Override
    public String toString() {
        return "Watermark @ " + timestamp;
    }
}
