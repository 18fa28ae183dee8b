package dev.runnel.streaming.util.retryable;

import dev.runnel.streaming.api.functions.async.AsyncRetryPredicate;
import dev.runnel.streaming.api.functions.async.AsyncRetryStrategy;
import java.io.Serializable;
import java.util.Collection;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * Ready-made retry strategies for async I/O, as Flink's: none, a fixed delay, and an exponentially growing
 * delay, each with up to {@code maxAttempts} attempts in all and the predicates given to the builder.
 */
public final class AsyncRetryStrategies {

    private AsyncRetryStrategies() {}

    /** Never retries. */
    @SuppressWarnings("rawtypes")
    public static final AsyncRetryStrategy NO_RETRY_STRATEGY = new Strategy<>(1, 0, 0, 1, null, null);

    /** Builds a strategy that waits {@code backoffTimeMillis} before each retry. */
    public static final class FixedDelayRetryStrategyBuilder<OUT> {
        private final int maxAttempts;
        private final long backoffTimeMillis;
        private Predicate<Collection<OUT>> resultPredicate;
        private Predicate<Throwable> exceptionPredicate;

        public FixedDelayRetryStrategyBuilder(int maxAttempts, long backoffTimeMillis) {
            checkAttempts(maxAttempts);
            if (backoffTimeMillis < 0) {
                throw new IllegalArgumentException("backoffTimeMillis must be >= 0, was " + backoffTimeMillis);
            }
            this.maxAttempts = maxAttempts;
            this.backoffTimeMillis = backoffTimeMillis;
        }

        public FixedDelayRetryStrategyBuilder<OUT> ifResult(Predicate<Collection<OUT>> resultRetryPredicate) {
            this.resultPredicate = resultRetryPredicate;
            return this;
        }

        public FixedDelayRetryStrategyBuilder<OUT> ifException(Predicate<Throwable> exceptionRetryPredicate) {
            this.exceptionPredicate = exceptionRetryPredicate;
            return this;
        }

        public AsyncRetryStrategy<OUT> build() {
            return new Strategy<>(maxAttempts, backoffTimeMillis, backoffTimeMillis, 1, resultPredicate,
                    exceptionPredicate);
        }
    }

    /** Builds a strategy whose delay starts at {@code initialDelay} and grows by {@code multiplier} up to a cap. */
    public static final class ExponentialBackoffDelayRetryStrategyBuilder<OUT> {
        private final int maxAttempts;
        private final long initialDelay;
        private final long maxRetryDelay;
        private final double multiplier;
        private Predicate<Collection<OUT>> resultPredicate;
        private Predicate<Throwable> exceptionPredicate;

        public ExponentialBackoffDelayRetryStrategyBuilder(int maxAttempts, long initialDelay, long maxRetryDelay,
                double multiplier) {
            checkAttempts(maxAttempts);
            if (initialDelay < 0 || maxRetryDelay < initialDelay || multiplier < 1) {
                throw new IllegalArgumentException("need 0 <= initialDelay <= maxRetryDelay and multiplier >= 1, got "
                        + initialDelay + ", " + maxRetryDelay + ", " + multiplier);
            }
            this.maxAttempts = maxAttempts;
            this.initialDelay = initialDelay;
            this.maxRetryDelay = maxRetryDelay;
            this.multiplier = multiplier;
        }

        public ExponentialBackoffDelayRetryStrategyBuilder<OUT> ifResult(Predicate<Collection<OUT>> resultRetryPredicate) {
            this.resultPredicate = resultRetryPredicate;
            return this;
        }

        public ExponentialBackoffDelayRetryStrategyBuilder<OUT> ifException(Predicate<Throwable> exceptionRetryPredicate) {
            this.exceptionPredicate = exceptionRetryPredicate;
            return this;
        }

        public AsyncRetryStrategy<OUT> build() {
            return new Strategy<>(maxAttempts, initialDelay, maxRetryDelay, multiplier, resultPredicate,
                    exceptionPredicate);
        }
    }

    private static void checkAttempts(int maxAttempts) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, was " + maxAttempts);
        }
    }

    /** Up to {@code maxAttempts} attempts; the delay before attempt k+1 is min(initial * multiplier^(k-1), max). */
    private static final class Strategy<OUT> implements AsyncRetryStrategy<OUT>, AsyncRetryPredicate<OUT>, Serializable {
        private static final long serialVersionUID = 1L;

        private final int maxAttempts;
        private final long initialDelay;
        private final long maxDelay;
        private final double multiplier;
        private final Predicate<Collection<OUT>> resultPredicate;
        private final Predicate<Throwable> exceptionPredicate;

        Strategy(int maxAttempts, long initialDelay, long maxDelay, double multiplier,
                Predicate<Collection<OUT>> resultPredicate, Predicate<Throwable> exceptionPredicate) {
            this.maxAttempts = maxAttempts;
            this.initialDelay = initialDelay;
            this.maxDelay = maxDelay;
            this.multiplier = multiplier;
            this.resultPredicate = resultPredicate;
            this.exceptionPredicate = exceptionPredicate;
        }

        @Override
        public boolean canRetry(int currentAttempts) {
            return currentAttempts < maxAttempts;
        }

        @Override
        public long getBackoffTimeMillis(int currentAttempts) {
            double delay = initialDelay * Math.pow(multiplier, Math.max(0, currentAttempts - 1));
            return (long) Math.min(delay, maxDelay);
        }

        @Override
        public AsyncRetryPredicate<OUT> getRetryPredicate() {
            return this;
        }

        @Override
        public Optional<Predicate<Collection<OUT>>> resultPredicate() {
            return Optional.ofNullable(resultPredicate);
        }

        @Override
        public Optional<Predicate<Throwable>> exceptionPredicate() {
            return Optional.ofNullable(exceptionPredicate);
        }
    }
}
