package dev.runnel.runtime.executiongraph.failover;

import dev.runnel.util.Preconditions;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * Restarts after a fixed delay as long as failures are rare enough
 * ({@code restart-strategy.type: failure-rate}): the job fails for good when more than
 * {@code maxFailuresPerInterval} failures fall within one sliding window of {@code failuresIntervalMs}
 * (a failure exactly one interval old still counts). With at most 2 failures per 10 s:
 *
 * <pre>
 *   failures at   0 s   4 s   9 s     → third within 10 s of the first: no restart
 *   failures at   0 s   4 s   11 s    → at 11 s the window [1 s, 11 s] holds 2: restart
 * </pre>
 *
 * <p>Keeps at most {@code maxFailuresPerInterval + 1} timestamps. Not thread-safe (see
 * {@link RestartBackoffTimeStrategy}); the clock is a millisecond {@link LongSupplier}.
 */
public final class FailureRateRestartBackoffTimeStrategy implements RestartBackoffTimeStrategy {

    private final LongSupplier clock;
    private final int maxFailuresPerInterval;
    private final long failuresIntervalMs;
    private final long backoffTimeMs;
    private final ArrayDeque<Long> failureTimestamps = new ArrayDeque<>();

    /**
     * @param clock milliseconds, monotonic
     * @param maxFailuresPerInterval failures tolerated per window, at least 1
     * @param failuresIntervalMs the window, at least 1 ms
     * @param backoffTimeMs milliseconds before each restart, 0 or more
     */
    public FailureRateRestartBackoffTimeStrategy(LongSupplier clock, int maxFailuresPerInterval,
            long failuresIntervalMs, long backoffTimeMs) {
        Preconditions.checkArgument(maxFailuresPerInterval >= 1,
                "The maximum number of failures per interval must be at least 1, was %s", maxFailuresPerInterval);
        Preconditions.checkArgument(failuresIntervalMs >= 1, "The failure-rate interval must be at least 1 ms, was %s ms",
                failuresIntervalMs);
        Preconditions.checkArgument(backoffTimeMs >= 0, "The restart delay must be 0 ms or more, was %s ms",
                backoffTimeMs);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.maxFailuresPerInterval = maxFailuresPerInterval;
        this.failuresIntervalMs = failuresIntervalMs;
        this.backoffTimeMs = backoffTimeMs;
    }

    @Override
    public boolean canRestart() {
        dropOutsideWindow(clock.getAsLong());
        return failureTimestamps.size() <= maxFailuresPerInterval;
    }

    @Override
    public long getBackoffTime() {
        return backoffTimeMs;
    }

    @Override
    public void notifyFailure(Throwable cause) {
        long now = clock.getAsLong();
        failureTimestamps.addLast(now);
        dropOutsideWindow(now);
        // Beyond max + 1 failures in the window the answer stays "no"; older ones add nothing.
        while (failureTimestamps.size() > maxFailuresPerInterval + 1) {
            failureTimestamps.removeFirst();
        }
    }

    private void dropOutsideWindow(long now) {
        while (!failureTimestamps.isEmpty() && now - failureTimestamps.peekFirst() > failuresIntervalMs) {
            failureTimestamps.removeFirst();
        }
    }

    @Override
    public String getDescription() {
        return String.format("FailureRateRestartBackoffTimeStrategy(maxFailuresPerInterval=%d, failuresIntervalMS=%d, "
                + "backoffTimeMS=%d)", maxFailuresPerInterval, failuresIntervalMs, backoffTimeMs);
    }

    @Override
    public String toString() {
        return getDescription();
    }

    /** Creates fresh strategies with the same settings, on {@code clock}. */
    public record FailureRateRestartBackoffTimeStrategyFactory(LongSupplier clock, int maxFailuresPerInterval,
            long failuresIntervalMs, long backoffTimeMs) implements Factory {

        @Override
        public RestartBackoffTimeStrategy create() {
            return new FailureRateRestartBackoffTimeStrategy(clock, maxFailuresPerInterval, failuresIntervalMs,
                    backoffTimeMs);
        }
    }
}
