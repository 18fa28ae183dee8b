package dev.runnel.runtime.executiongraph.failover;

import java.util.function.LongSupplier;

/** A millisecond clock that moves only when a test says so. Not thread-safe. */
final class ManualMillisClock implements LongSupplier {

    private long now;

    ManualMillisClock(long start) {
        this.now = start;
    }

    void advance(long millis) {
        now += millis;
    }

    @Override
    public long getAsLong() {
        return now;
    }
}
