package dev.runnel.api.common.eventtime;

/**
 * Gives each record its event timestamp (milliseconds). Task thread only.
 */
@FunctionalInterface
public interface TimestampAssigner<T> {

    /** The timestamp of a record that has none. */
    long NO_TIMESTAMP = Long.MIN_VALUE;

    /**
     * The event timestamp of {@code element}; {@code recordTimestamp} is the one it already carries
     * (from the source), or {@link #NO_TIMESTAMP}.
     */
    long extractTimestamp(T element, long recordTimestamp);
}
