package dev.runnel.api.common.eventtime;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * Wraps a generator and marks the output idle when no event arrived for {@code idleTimeout}
 * (processing time), so a quiet source or partition does not hold back event time downstream. The
 * first event after that makes it active again.
 */
public final class WatermarksWithIdleness<T> implements WatermarkGenerator<T> {

    private final WatermarkGenerator<T> delegate;
    private final long idleTimeoutMillis;
    private final LongSupplier clock;
    private long lastEventTime;
    private boolean idle;

    public WatermarksWithIdleness(WatermarkGenerator<T> delegate, Duration idleTimeout, LongSupplier clock) {
        if (idleTimeout == null || idleTimeout.isNegative() || idleTimeout.isZero()) {
            throw new IllegalArgumentException("idle timeout must be positive, was " + idleTimeout);
        }
        this.delegate = delegate;
        this.idleTimeoutMillis = idleTimeout.toMillis();
        this.clock = clock;
        this.lastEventTime = clock.getAsLong();
    }

    @Override
    public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
        lastEventTime = clock.getAsLong();
        if (idle) {
            idle = false;
            output.markActive();
        }
        delegate.onEvent(event, eventTimestamp, output);
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        if (idle) {
            return;
        }
        if (clock.getAsLong() - lastEventTime >= idleTimeoutMillis) {
            idle = true;
            output.markIdle();
        } else {
            delegate.onPeriodicEmit(output);
        }
    }
}
