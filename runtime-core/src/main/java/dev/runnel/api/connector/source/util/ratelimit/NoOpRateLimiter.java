package dev.runnel.api.connector.source.util.ratelimit;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** Grants every permit at once. Stateless; thread-safe. */
final class NoOpRateLimiter implements RateLimiter {

    static final NoOpRateLimiter INSTANCE = new NoOpRateLimiter();

    static final RateLimiterStrategy STRATEGY = new Strategy();

    private static final CompletableFuture<Void> GRANTED = CompletableFuture.completedFuture(null);

    private NoOpRateLimiter() {}

    @Override
    public CompletionStage<Void> acquire() {
        return GRANTED;
    }

    private static final class Strategy implements RateLimiterStrategy {
        private static final long serialVersionUID = 1L;

        @Override
        public RateLimiter createRateLimiter(int parallelism) {
            return INSTANCE;
        }

        private Object readResolve() {
            return STRATEGY;
        }

        @Override
        public String toString() {
            return "RateLimiterStrategy.noOp()";
        }
    }
}
