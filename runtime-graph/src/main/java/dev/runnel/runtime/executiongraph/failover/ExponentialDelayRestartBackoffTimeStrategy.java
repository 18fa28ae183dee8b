package dev.runnel.runtime.executiongraph.failover;

import dev.runnel.util.Preconditions;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * Restarts with a delay that grows after each failure and shrinks back once the job has run quietly
 * ({@code restart-strategy.type: exponential-delay}, Flink's default for jobs that checkpoint).
 *
 * <p>The first failure waits {@code initialBackoff}; each further failure multiplies the delay by
 * {@code backoffMultiplier}, up to {@code maxBackoff}. A failure that comes at least
 * {@code resetBackoffThreshold} plus the current delay after the previous one starts over: delay back to
 * {@code initialBackoff}, attempt count back to 1. Within one such run at most
 * {@code attemptsBeforeResetBackoff} restarts are allowed. The delay returned is randomised by up to
 * {@code jitterFactor} of itself either way (never above {@code maxBackoff}, never below 0), so that many
 * jobs failing together do not restart together. Worked example, initial 1 s, multiplier 2, max 10 s,
 * jitter 0:
 *
 * <pre>
 *   failure   1    2    3    4    5     (quiet for threshold + 10 s)   6
 *   delay     1 s  2 s  4 s  8 s  10 s                                 1 s
 * </pre>
 *
 * <p>Not thread-safe (see {@link RestartBackoffTimeStrategy}); the clock is a millisecond {@link LongSupplier}
 * so tests control time.
 */
public final class ExponentialDelayRestartBackoffTimeStrategy implements RestartBackoffTimeStrategy {

    private final LongSupplier clock;
    private final RandomGenerator random;
    private final long initialBackoffMs;
    private final long maxBackoffMs;
    private final double backoffMultiplier;
    private final long resetBackoffThresholdMs;
    private final double jitterFactor;
    private final int attemptsBeforeResetBackoff;

    private long currentBackoffMs;
    private int attemptsSinceReset;
    private boolean failedBefore;
    private long lastFailureTimestamp;

    /** A strategy on the monotonic system clock with thread-local randomness. */
    public ExponentialDelayRestartBackoffTimeStrategy(long initialBackoffMs, long maxBackoffMs,
            double backoffMultiplier, long resetBackoffThresholdMs, double jitterFactor,
            int attemptsBeforeResetBackoff) {
        this(RestartBackoffTimeStrategyFactoryLoader.MONOTONIC_MILLIS, ThreadLocalRandom.current(), initialBackoffMs,
                maxBackoffMs, backoffMultiplier, resetBackoffThresholdMs, jitterFactor, attemptsBeforeResetBackoff);
    }

    /**
     * @param clock milliseconds, monotonic
     * @param random the source of jitter
     * @param initialBackoffMs the first delay, at least 1
     * @param maxBackoffMs the largest delay, at least {@code initialBackoffMs}
     * @param backoffMultiplier the growth per failure, at least 1
     * @param resetBackoffThresholdMs the quiet time after which the backoff resets, at least 1
     * @param jitterFactor between 0 and 1
     * @param attemptsBeforeResetBackoff restarts allowed between resets, 0 or more
     */
    public ExponentialDelayRestartBackoffTimeStrategy(LongSupplier clock, RandomGenerator random,
            long initialBackoffMs, long maxBackoffMs, double backoffMultiplier, long resetBackoffThresholdMs,
            double jitterFactor, int attemptsBeforeResetBackoff) {
        Preconditions.checkArgument(initialBackoffMs >= 1, "The initial backoff must be at least 1 ms, was %s ms",
                initialBackoffMs);
        Preconditions.checkArgument(maxBackoffMs >= initialBackoffMs,
                "The maximum backoff (%s ms) must not be below the initial backoff (%s ms)", maxBackoffMs,
                initialBackoffMs);
        Preconditions.checkArgument(backoffMultiplier >= 1.0 && Double.isFinite(backoffMultiplier),
                "The backoff multiplier must be at least 1, was %s", backoffMultiplier);
        Preconditions.checkArgument(resetBackoffThresholdMs >= 1,
                "The reset-backoff threshold must be at least 1 ms, was %s ms", resetBackoffThresholdMs);
        Preconditions.checkArgument(jitterFactor >= 0.0 && jitterFactor <= 1.0,
                "The jitter factor must be between 0 and 1, was %s", jitterFactor);
        Preconditions.checkArgument(attemptsBeforeResetBackoff >= 0,
                "The attempts before the backoff resets must be 0 or more, was %s", attemptsBeforeResetBackoff);
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        this.initialBackoffMs = initialBackoffMs;
        this.maxBackoffMs = maxBackoffMs;
        this.backoffMultiplier = backoffMultiplier;
        this.resetBackoffThresholdMs = resetBackoffThresholdMs;
        this.jitterFactor = jitterFactor;
        this.attemptsBeforeResetBackoff = attemptsBeforeResetBackoff;
        this.currentBackoffMs = initialBackoffMs;
    }

    @Override
    public boolean canRestart() {
        return attemptsSinceReset <= attemptsBeforeResetBackoff;
    }

    @Override
    public long getBackoffTime() {
        long jitter = 0;
        long spread = (long) (currentBackoffMs * jitterFactor);
        if (spread > 0) {
            jitter = random.nextLong(-spread, spread + 1);
        }
        return Math.max(0, Math.min(maxBackoffMs, currentBackoffMs + jitter));
    }

    /** The delay before jitter: what {@link #getBackoffTime()} varies around. */
    public long getCurrentBackoffMs() {
        return currentBackoffMs;
    }

    @Override
    public void notifyFailure(Throwable cause) {
        long now = clock.getAsLong();
        // The quiet time is measured from the previous failure and includes the delay that followed it, so
        // that a job which fails right after its (long) restart delay is not mistaken for a quiet one.
        boolean quiet = !failedBefore || now - lastFailureTimestamp >= resetBackoffThresholdMs + currentBackoffMs;
        if (quiet) {
            currentBackoffMs = initialBackoffMs;
            attemptsSinceReset = 1;
        } else {
            double grown = currentBackoffMs * backoffMultiplier;
            currentBackoffMs = grown >= maxBackoffMs ? maxBackoffMs : Math.max(initialBackoffMs, (long) grown);
            if (attemptsSinceReset < Integer.MAX_VALUE) {
                attemptsSinceReset++;
            }
        }
        failedBefore = true;
        lastFailureTimestamp = now;
    }

    @Override
    public String getDescription() {
        return String.format("ExponentialDelayRestartBackoffTimeStrategy(initialBackoffMS=%d, maxBackoffMS=%d, "
                + "backoffMultiplier=%s, resetBackoffThresholdMS=%d, jitterFactor=%s, attemptsBeforeResetBackoff=%d, "
                + "currentBackoffMS=%d, attemptsSinceReset=%d)", initialBackoffMs, maxBackoffMs, backoffMultiplier,
                resetBackoffThresholdMs, jitterFactor, attemptsBeforeResetBackoff, currentBackoffMs,
                attemptsSinceReset);
    }

    @Override
    public String toString() {
        return getDescription();
    }

    /** Creates fresh strategies with the same settings, on {@code clock}. */
    public record ExponentialDelayRestartBackoffTimeStrategyFactory(LongSupplier clock, long initialBackoffMs,
            long maxBackoffMs, double backoffMultiplier, long resetBackoffThresholdMs, double jitterFactor,
            int attemptsBeforeResetBackoff) implements Factory {

        @Override
        public RestartBackoffTimeStrategy create() {
            return new ExponentialDelayRestartBackoffTimeStrategy(clock, ThreadLocalRandom.current(), initialBackoffMs,
                    maxBackoffMs, backoffMultiplier, resetBackoffThresholdMs, jitterFactor,
                    attemptsBeforeResetBackoff);
        }
    }
}
