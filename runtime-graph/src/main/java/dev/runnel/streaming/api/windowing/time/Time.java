package dev.runnel.streaming.api.windowing.time;

import java.io.Serializable;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A span of time for window sizes and lateness, as Flink 1.x jobs write it ({@code Time.seconds(5)}).
 * New code can pass a {@link Duration} instead. Immutable.
 */
public final class Time implements Serializable {

    private static final long serialVersionUID = 1L;

    private final long milliseconds;

    private Time(long milliseconds) {
        this.milliseconds = milliseconds;
    }

    public static Time of(long size, TimeUnit unit) {
        return new Time(unit.toMillis(size));
    }

    public static Time milliseconds(long ms) {
        return new Time(ms);
    }

    public static Time seconds(long s) {
        return of(s, TimeUnit.SECONDS);
    }

    public static Time minutes(long m) {
        return of(m, TimeUnit.MINUTES);
    }

    public static Time hours(long h) {
        return of(h, TimeUnit.HOURS);
    }

    public static Time days(long d) {
        return of(d, TimeUnit.DAYS);
    }

    public long toMilliseconds() {
        return milliseconds;
    }

    public Duration toDuration() {
        return Duration.ofMillis(milliseconds);
    }

    @Override
    public String toString() {
        return milliseconds + " ms";
    }
}
