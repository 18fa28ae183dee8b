package dev.runnel.api.connector.source.util.ratelimit;

import java.util.concurrent.CompletionStage;

/**
 * A rate limiter for one reader that grants {@code maxPerSecond} permits a second, at Flink's
 * package path and with Flink's constructor, so {@code parallelism -> new GuavaRateLimiter(10)} (a
 * {@link RateLimiterStrategy} giving every reader its own rate, as Flink's TopSpeedWindowing uses it)
 * ports unchanged. Flink backs it with Guava's {@code RateLimiter}; here it is the same pacing as
 * {@link RateLimiterStrategy#perSecond} and Guava is not needed: permits are due at a fixed interval,
 * and a reader that falls behind does not bank unused permits. Never blocks (see {@link RateLimiter}).
 * One caller thread; not thread-safe.
 */
public final class GuavaRateLimiter implements RateLimiter {

    private final RateLimiter pace;

    /**
     * @throws IllegalArgumentException if {@code maxPerSecond} is not a positive finite number
     */
    public GuavaRateLimiter(double maxPerSecond) {
        this.pace = new PacedRateLimiter(maxPerSecond);
    }

    @Override
    public CompletionStage<Void> acquire() {
        return pace.acquire();
    }
}
