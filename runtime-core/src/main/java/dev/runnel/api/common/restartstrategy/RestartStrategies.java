package dev.runnel.api.common.restartstrategy;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.configuration.RestartStrategyOptions;
import java.io.Serializable;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Flink's programmatic restart strategies ({@code env.setRestartStrategy(RestartStrategies.fixedDelayRestart(3,
 * 10_000))}). As in Flink 1.20 this is the older way; the configuration keys of {@link RestartStrategyOptions}
 * are the newer one, and they are what counts: each configuration here {@linkplain
 * RestartStrategyConfiguration#writeTo writes} those keys, and {@link #fromConfiguration} reads them back, so
 * the engine only ever reads the job's configuration.
 *
 * <p>Stateless factory methods; the configurations are immutable, serializable and thread-safe.
 */
public final class RestartStrategies {

    /** The names {@code restart-strategy.type} accepts, as the error message lists them. */
    public static final List<String> STRATEGY_NAMES = List.of("none", "off", "disable", "fixed-delay", "fixeddelay",
            "failure-rate", "failurerate", "exponential-delay", "exponentialdelay");

    private RestartStrategies() {}

    /** A failure fails the job. */
    public static RestartStrategyConfiguration noRestart() {
        return new NoRestartStrategyConfiguration();
    }

    /** Whatever the cluster configuration says (in the embedded runtime: the defaults). */
    public static RestartStrategyConfiguration fallBackRestart() {
        return new FallbackRestartStrategyConfiguration();
    }

    /** Up to {@code restartAttempts} restarts, {@code delayBetweenAttempts} milliseconds apart. */
    public static RestartStrategyConfiguration fixedDelayRestart(int restartAttempts, long delayBetweenAttempts) {
        return fixedDelayRestart(restartAttempts, Duration.ofMillis(delayBetweenAttempts));
    }

    /** Up to {@code restartAttempts} restarts, {@code delayInterval} apart. */
    public static RestartStrategyConfiguration fixedDelayRestart(int restartAttempts, Duration delayInterval) {
        return new FixedDelayRestartStrategyConfiguration(restartAttempts, delayInterval);
    }

    /**
     * Restarts {@code delayInterval} after each failure, until more than {@code failureRate} failures fall
     * within one {@code failureInterval}.
     */
    public static FailureRateRestartStrategyConfiguration failureRateRestart(int failureRate, Duration failureInterval,
            Duration delayInterval) {
        return new FailureRateRestartStrategyConfiguration(failureRate, failureInterval, delayInterval);
    }

    /**
     * Restarts without limit, the delay starting at {@code initialBackoff} and growing by
     * {@code backoffMultiplier} per failure up to {@code maxBackoff}, give or take {@code jitterFactor} of
     * it; a job that runs {@code resetBackoffThreshold} without failing starts again from the initial delay.
     */
    public static ExponentialDelayRestartStrategyConfiguration exponentialDelayRestart(Duration initialBackoff,
            Duration maxBackoff, double backoffMultiplier, Duration resetBackoffThreshold, double jitterFactor) {
        return new ExponentialDelayRestartStrategyConfiguration(initialBackoff, maxBackoff, backoffMultiplier,
                resetBackoffThreshold, jitterFactor,
                RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS.defaultValue());
    }

    /**
     * The restart strategy {@code configuration} names in {@code restart-strategy.type}, with its options
     * (defaults where unset); empty when no strategy is named, which leaves the choice to the engine's default.
     *
     * @throws IllegalConfigurationException if the name is unknown or a value does not parse; the message
     *     names the key, the value and what is accepted
     */
    public static Optional<RestartStrategyConfiguration> fromConfiguration(Configuration configuration) {
        Objects.requireNonNull(configuration, "configuration");
        String type = read(configuration, RestartStrategyOptions.RESTART_STRATEGY);
        if (type == null || type.isBlank()) {
            return Optional.empty();
        }
        return Optional.of(switch (type.trim().toLowerCase(Locale.ROOT)) {
            case "none", "off", "disable" -> noRestart();
            case "fixed-delay", "fixeddelay" -> new FixedDelayRestartStrategyConfiguration(
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS),
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY));
            case "failure-rate", "failurerate" -> new FailureRateRestartStrategyConfiguration(
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL),
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL),
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY));
            case "exponential-delay", "exponentialdelay" -> new ExponentialDelayRestartStrategyConfiguration(
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF),
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF),
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER),
                    read(configuration,
                            RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD),
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR),
                    read(configuration, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS));
            default -> throw new IllegalConfigurationException(
                    "Invalid value '%s' for configuration option '%s': expected one of %s.", type,
                    usedKey(configuration, RestartStrategyOptions.RESTART_STRATEGY), String.join(", ", STRATEGY_NAMES));
        });
    }

    private static <T> T read(Configuration configuration, ConfigOption<T> option) {
        try {
            return configuration.get(option);
        } catch (IllegalArgumentException e) {
            throw new IllegalConfigurationException(e.getMessage(), e);
        }
    }

    private static String usedKey(Configuration configuration, ConfigOption<?> option) {
        if (configuration.toMap().containsKey(option.key())) {
            return option.key();
        }
        for (ConfigOption.FallbackKey fallback : option.fallbackKeys()) {
            if (configuration.toMap().containsKey(fallback.key())) {
                return fallback.key();
            }
        }
        return option.key();
    }

    /** Removes every restart key, so that a newly written strategy leaves nothing of an older one behind. */
    private static void clear(Configuration configuration) {
        for (ConfigOption<?> option : List.of(RestartStrategyOptions.RESTART_STRATEGY,
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS,
                RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL,
                RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL,
                RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY,
                RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF,
                RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF,
                RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER,
                RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD,
                RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR,
                RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS)) {
            configuration.removeConfig(option);
        }
    }

    /**
     * A restart strategy as a value: which one, with which settings. Subclasses are the ones here; each
     * knows the keys it stands for.
     */
    public abstract static class RestartStrategyConfiguration implements Serializable {

        private static final long serialVersionUID = 1L;

        RestartStrategyConfiguration() {}

        /** A sentence for logs and error messages, e.g. "Restart with fixed delay (1 s). #3 restart attempts.". */
        public abstract String getDescription();

        /**
         * Writes this strategy into {@code configuration} under {@link RestartStrategyOptions}' keys, replacing
         * any restart keys already there.
         */
        public final void writeTo(Configuration configuration) {
            Objects.requireNonNull(configuration, "configuration");
            clear(configuration);
            writeKeys(configuration);
        }

        abstract void writeKeys(Configuration configuration);

        @Override
        public String toString() {
            return getDescription();
        }
    }

    /** No restarts: {@code restart-strategy.type: none}. */
    public static final class NoRestartStrategyConfiguration extends RestartStrategyConfiguration {

        private static final long serialVersionUID = 1L;

        @Override
        public String getDescription() {
            return "Restart deactivated.";
        }

        @Override
        void writeKeys(Configuration configuration) {
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "none");
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof NoRestartStrategyConfiguration;
        }

        @Override
        public int hashCode() {
            return 1;
        }
    }

    /** The cluster's strategy: writes no restart keys at all. */
    public static final class FallbackRestartStrategyConfiguration extends RestartStrategyConfiguration {

        private static final long serialVersionUID = 1L;

        @Override
        public String getDescription() {
            return "Cluster level default restart strategy";
        }

        @Override
        void writeKeys(Configuration configuration) {
            // Nothing: with no restart key the engine applies its default.
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FallbackRestartStrategyConfiguration;
        }

        @Override
        public int hashCode() {
            return 2;
        }
    }

    /** {@code restart-strategy.type: fixed-delay} with its attempts and delay. */
    public static final class FixedDelayRestartStrategyConfiguration extends RestartStrategyConfiguration {

        private static final long serialVersionUID = 1L;

        private final int restartAttempts;
        private final Duration delayBetweenAttemptsInterval;

        FixedDelayRestartStrategyConfiguration(int restartAttempts, Duration delayBetweenAttemptsInterval) {
            this.restartAttempts = restartAttempts;
            this.delayBetweenAttemptsInterval = Objects.requireNonNull(delayBetweenAttemptsInterval, "delay");
        }

        public int getRestartAttempts() {
            return restartAttempts;
        }

        public Duration getDurationBetweenAttempts() {
            return delayBetweenAttemptsInterval;
        }

        @Override
        public String getDescription() {
            return String.format("Restart with fixed delay (%s). #%d restart attempts.", delayBetweenAttemptsInterval,
                    restartAttempts);
        }

        @Override
        void writeKeys(Configuration configuration) {
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, restartAttempts);
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, delayBetweenAttemptsInterval);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FixedDelayRestartStrategyConfiguration that && restartAttempts == that.restartAttempts
                    && delayBetweenAttemptsInterval.equals(that.delayBetweenAttemptsInterval);
        }

        @Override
        public int hashCode() {
            return Objects.hash(restartAttempts, delayBetweenAttemptsInterval);
        }
    }

    /** {@code restart-strategy.type: failure-rate} with its rate, window and delay. */
    public static final class FailureRateRestartStrategyConfiguration extends RestartStrategyConfiguration {

        private static final long serialVersionUID = 1L;

        private final int maxFailureRate;
        private final Duration failureInterval;
        private final Duration delayBetweenAttemptsInterval;

        FailureRateRestartStrategyConfiguration(int maxFailureRate, Duration failureInterval,
                Duration delayBetweenAttemptsInterval) {
            this.maxFailureRate = maxFailureRate;
            this.failureInterval = Objects.requireNonNull(failureInterval, "failureInterval");
            this.delayBetweenAttemptsInterval = Objects.requireNonNull(delayBetweenAttemptsInterval, "delay");
        }

        public int getMaxFailureRate() {
            return maxFailureRate;
        }

        public Duration getFailureIntervalDuration() {
            return failureInterval;
        }

        public Duration getDelayBetweenAttemptsDuration() {
            return delayBetweenAttemptsInterval;
        }

        @Override
        public String getDescription() {
            return String.format("Failure rate restart with maximum of %d failures within interval %s and fixed delay %s.",
                    maxFailureRate, failureInterval, delayBetweenAttemptsInterval);
        }

        @Override
        void writeKeys(Configuration configuration) {
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "failure-rate");
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL,
                    maxFailureRate);
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL,
                    failureInterval);
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY, delayBetweenAttemptsInterval);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof FailureRateRestartStrategyConfiguration that && maxFailureRate == that.maxFailureRate
                    && failureInterval.equals(that.failureInterval)
                    && delayBetweenAttemptsInterval.equals(that.delayBetweenAttemptsInterval);
        }

        @Override
        public int hashCode() {
            return Objects.hash(maxFailureRate, failureInterval, delayBetweenAttemptsInterval);
        }
    }

    /** {@code restart-strategy.type: exponential-delay} with its backoff settings. */
    public static final class ExponentialDelayRestartStrategyConfiguration extends RestartStrategyConfiguration {

        private static final long serialVersionUID = 1L;

        private final Duration initialBackoff;
        private final Duration maxBackoff;
        private final double backoffMultiplier;
        private final Duration resetBackoffThreshold;
        private final double jitterFactor;
        private final int attemptsBeforeResetBackoff;

        ExponentialDelayRestartStrategyConfiguration(Duration initialBackoff, Duration maxBackoff,
                double backoffMultiplier, Duration resetBackoffThreshold, double jitterFactor,
                int attemptsBeforeResetBackoff) {
            this.initialBackoff = Objects.requireNonNull(initialBackoff, "initialBackoff");
            this.maxBackoff = Objects.requireNonNull(maxBackoff, "maxBackoff");
            this.backoffMultiplier = backoffMultiplier;
            this.resetBackoffThreshold = Objects.requireNonNull(resetBackoffThreshold, "resetBackoffThreshold");
            this.jitterFactor = jitterFactor;
            this.attemptsBeforeResetBackoff = attemptsBeforeResetBackoff;
        }

        public Duration getInitialBackoffDuration() {
            return initialBackoff;
        }

        public Duration getMaxBackoffDuration() {
            return maxBackoff;
        }

        public double getBackoffMultiplier() {
            return backoffMultiplier;
        }

        public Duration getResetBackoffDurationThreshold() {
            return resetBackoffThreshold;
        }

        public double getJitterFactor() {
            return jitterFactor;
        }

        /** Restarts allowed between two resets of the backoff ({@code Integer.MAX_VALUE}: no limit). */
        public int getAttemptsBeforeResetBackoff() {
            return attemptsBeforeResetBackoff;
        }

        @Override
        public String getDescription() {
            return String.format("Restart with exponential delay: starting at %s, increasing by %s, with maximum %s. "
                    + "Delay resets after %s with jitter %s.", initialBackoff, backoffMultiplier, maxBackoff,
                    resetBackoffThreshold, jitterFactor);
        }

        @Override
        void writeKeys(Configuration configuration) {
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay");
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF, initialBackoff);
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, maxBackoff);
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER,
                    backoffMultiplier);
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD,
                    resetBackoffThreshold);
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR, jitterFactor);
            configuration.set(RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS,
                    attemptsBeforeResetBackoff);
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof ExponentialDelayRestartStrategyConfiguration that
                    && initialBackoff.equals(that.initialBackoff) && maxBackoff.equals(that.maxBackoff)
                    && Double.compare(backoffMultiplier, that.backoffMultiplier) == 0
                    && resetBackoffThreshold.equals(that.resetBackoffThreshold)
                    && Double.compare(jitterFactor, that.jitterFactor) == 0
                    && attemptsBeforeResetBackoff == that.attemptsBeforeResetBackoff;
        }

        @Override
        public int hashCode() {
            return Objects.hash(initialBackoff, maxBackoff, backoffMultiplier, resetBackoffThreshold, jitterFactor,
                    attemptsBeforeResetBackoff);
        }
    }
}
