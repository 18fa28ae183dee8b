package dev.runnel.util.clock;

/**
 * A clock that only measures elapsed time: its values have no meaning on their own (they are not
 * epoch times), only differences between two readings do. As Flink's {@code RelativeClock}.
 */
public interface RelativeClock {

    /** The current relative time in milliseconds. */
    long relativeTimeMillis();

    /** The current relative time in nanoseconds. */
    long relativeTimeNanos();
}
