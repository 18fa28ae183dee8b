package dev.runnel.streaming.api.watermark;

import java.io.Serializable;

/**
 * A watermark as operators and operator tests see it, at Flink's
 * {@code streaming.api.watermark} path: event time has reached {@link #getTimestamp()}. It is what
 * the operator test harnesses accept and list in their output; Runnel's operators themselves pass
 * {@link dev.runnel.api.common.eventtime.Watermark}, and the harnesses convert between the two.
 * Immutable.
 */
public class Watermark implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The watermark that ends event time. */
    public static final Watermark MAX_WATERMARK = new Watermark(Long.MAX_VALUE);

    /** The watermark of an input before its first one arrived. */
    public static final Watermark UNINITIALIZED = new Watermark(Long.MIN_VALUE);

    private final long timestamp;

    public Watermark(long timestamp) {
        this.timestamp = timestamp;
    }

    public long getTimestamp() {
        return timestamp;
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == Watermark.class && ((Watermark) o).timestamp == timestamp;
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
