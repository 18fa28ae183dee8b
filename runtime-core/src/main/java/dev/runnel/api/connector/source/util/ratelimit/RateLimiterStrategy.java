package dev.runnel.api.connector.source.util.ratelimit;

import java.io.Serializable;

/**
 * How fast a source may emit, as a factory of one {@link RateLimiter} per reader. Serializable
 * configuration that travels with the source; {@link #createRateLimiter} is called on each reader's
 * task thread when the reader is created.
 *
 * <pre>{@code
 * new DataGeneratorSource<>(i -> "event-" + i, 1_000_000, RateLimiterStrategy.perSecond(500), Types.STRING);
 * }</pre>
 */
public interface RateLimiterStrategy extends Serializable {

    /**
     * A rate limiter for one of {@code parallelism} readers (each reader's share of a global rate).
     * Never returns null.
     */
    RateLimiter createRateLimiter(int parallelism);

    /**
     * At most {@code recordsPerSecond} records per second over the whole source, split evenly across its
     * readers (each gets {@code recordsPerSecond / parallelism}). Permits are paced evenly, not granted in
     * bursts; a reader that falls behind does not catch up with a burst later.
     *
     * @throws IllegalArgumentException if the rate is not a positive finite number
     */
    static RateLimiterStrategy perSecond(double recordsPerSecond) {
        return new PacedRateLimiter.PerSecond(recordsPerSecond);
    }

    /** No limit: every permit is granted at once. */
    static RateLimiterStrategy noOp() {
        return NoOpRateLimiter.STRATEGY;
    }
}
