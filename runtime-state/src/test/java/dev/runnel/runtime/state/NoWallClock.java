package dev.runnel.runtime.state;

import dev.runnel.runtime.timers.ProcessingTimeService;

/**
 * Processing time that stands still, for timer tests that register no processing-time timer: one that does
 * fails the test. Stateless.
 */
public final class NoWallClock implements ProcessingTimeService {

    @Override
    public long getCurrentProcessingTime() {
        return 0;
    }

    @Override
    public Cancellable registerTimer(long timestamp, ProcessingTimeCallback callback) {
        throw new AssertionError("no processing-time timer is registered here");
    }
}
