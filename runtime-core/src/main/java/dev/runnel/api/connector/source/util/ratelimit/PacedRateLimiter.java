package dev.runnel.api.connector.source.util.ratelimit;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Grants permits at a fixed pace: permit {@code k} is due {@code k} intervals after the first one.
 * A permit due within {@link #EARLY_GRANT_NANOS} is granted at once (scheduling a timer for less
 * costs more than it saves), so a reader runs at most that far ahead of the pace; the long-run rate
 * is exact. When the caller falls behind, the pace restarts from now: unused permits are not banked.
 *
 * <p>Waiting permits are completed by the JDK's delayed executor (a shared daemon timer thread);
 * nothing blocks. One caller thread; not thread-safe.
 */
final class PacedRateLimiter implements RateLimiter {

    /** Permits due this soon are granted immediately. */
    static final long EARLY_GRANT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private static final CompletableFuture<Void> GRANTED = CompletableFuture.completedFuture(null);

    private final double intervalNanos;
    private final LongSupplier nanoClock;
    private final Timer timer;
    private final long origin;
    /** When the next permit is due, in nanoseconds after {@link #origin}. */
    private double nextDue;

    /** Runs an action after a delay, on some other thread. */
    @FunctionalInterface
    interface Timer {
        void runAfter(long delayNanos, Runnable action);
    }

    /** The JDK's shared delayed executor; the action (completing a future) runs on its timer thread. */
    private static final Timer JDK_TIMER = (delayNanos, action) ->
            CompletableFuture.delayedExecutor(delayNanos, TimeUnit.NANOSECONDS, Runnable::run).execute(action);

    PacedRateLimiter(double permitsPerSecond) {
        this(permitsPerSecond, System::nanoTime, JDK_TIMER);
    }

    /** For tests: a chosen clock and timer. */
    PacedRateLimiter(double permitsPerSecond, LongSupplier nanoClock, Timer timer) {
        if (!(permitsPerSecond > 0) || Double.isInfinite(permitsPerSecond)) {
            throw new IllegalArgumentException("A rate must be a positive number of permits per second, not "
                    + permitsPerSecond);
        }
        this.intervalNanos = 1e9 / permitsPerSecond;
        this.nanoClock = nanoClock;
        this.timer = timer;
        this.origin = nanoClock.getAsLong();
    }

    @Override
    public CompletionStage<Void> acquire() {
        long now = nanoClock.getAsLong() - origin;
        if (nextDue < now) {
            nextDue = now;
        }
        long wait = (long) Math.ceil(nextDue) - now;
        nextDue += intervalNanos;
        if (wait <= EARLY_GRANT_NANOS) {
            return GRANTED;
        }
        CompletableFuture<Void> permit = new CompletableFuture<>();
        timer.runAfter(wait, () -> permit.complete(null));
        return permit;
    }

    double intervalNanos() {
        return intervalNanos;
    }

    /** {@link RateLimiterStrategy#perSecond}: the global rate split evenly across the readers. */
    static final class PerSecond implements RateLimiterStrategy {
        private static final long serialVersionUID = 1L;

        private final double recordsPerSecond;

        PerSecond(double recordsPerSecond) {
            if (!(recordsPerSecond > 0) || Double.isInfinite(recordsPerSecond)) {
                throw new IllegalArgumentException(
                        "RateLimiterStrategy.perSecond needs a positive finite rate, not " + recordsPerSecond);
            }
            this.recordsPerSecond = recordsPerSecond;
        }

        @Override
        public RateLimiter createRateLimiter(int parallelism) {
            if (parallelism < 1) {
                throw new IllegalArgumentException("parallelism must be at least 1, not " + parallelism);
            }
            return new PacedRateLimiter(recordsPerSecond / parallelism);
        }

        @Override
        public String toString() {
            return "RateLimiterStrategy.perSecond(" + recordsPerSecond + ")";
        }
    }
}
