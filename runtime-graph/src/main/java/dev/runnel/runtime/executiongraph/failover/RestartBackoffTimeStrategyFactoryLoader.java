package dev.runnel.runtime.executiongraph.failover;

import dev.runnel.api.common.restartstrategy.RestartStrategies;
import dev.runnel.api.common.restartstrategy.RestartStrategies.ExponentialDelayRestartStrategyConfiguration;
import dev.runnel.api.common.restartstrategy.RestartStrategies.FailureRateRestartStrategyConfiguration;
import dev.runnel.api.common.restartstrategy.RestartStrategies.FallbackRestartStrategyConfiguration;
import dev.runnel.api.common.restartstrategy.RestartStrategies.FixedDelayRestartStrategyConfiguration;
import dev.runnel.api.common.restartstrategy.RestartStrategies.NoRestartStrategyConfiguration;
import dev.runnel.api.common.restartstrategy.RestartStrategies.RestartStrategyConfiguration;
import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.configuration.RestartStrategyOptions;
import dev.runnel.runtime.checkpoint.CheckpointCoordinatorConfiguration;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.LongSupplier;

/**
 * Turns a job's configuration into its restart strategy, with Flink 1.20's rule for the default:
 *
 * <pre>
 *   restart-strategy.type set          → that strategy, with its options (defaults where unset)
 *   unset, the job checkpoints         → exponential-delay with its default options
 *   unset, no checkpoints              → none: the first failure fails the job
 * </pre>
 *
 * <p>Every value is checked here, so a bad one fails the job at submission with a message that names the
 * key, the value and what is accepted, rather than at its first failure. Stateless; thread-safe.
 */
public final class RestartBackoffTimeStrategyFactoryLoader {

    /** Milliseconds from a monotonic source: quiet periods must not jump with the wall clock. */
    static final LongSupplier MONOTONIC_MILLIS = () -> System.nanoTime() / 1_000_000L;

    private RestartBackoffTimeStrategyFactoryLoader() {}

    /** The strategy for one run of the job, on the monotonic system clock. */
    public static RestartBackoffTimeStrategy createRestartBackoffTimeStrategy(Configuration jobConfig,
            boolean checkpointingEnabled) {
        return createRestartBackoffTimeStrategyFactory(jobConfig, checkpointingEnabled, MONOTONIC_MILLIS).create();
    }

    /** The strategy for one run of the job, on {@code clock} (milliseconds). */
    public static RestartBackoffTimeStrategy createRestartBackoffTimeStrategy(Configuration jobConfig,
            boolean checkpointingEnabled, LongSupplier clock) {
        return createRestartBackoffTimeStrategyFactory(jobConfig, checkpointingEnabled, clock).create();
    }

    /**
     * Like {@link #createRestartBackoffTimeStrategy(Configuration, boolean)}, with whether the job checkpoints
     * taken from {@code jobConfig} itself ({@code execution.checkpointing.interval}).
     */
    public static RestartBackoffTimeStrategy createRestartBackoffTimeStrategy(Configuration jobConfig) {
        return createRestartBackoffTimeStrategy(jobConfig,
                CheckpointCoordinatorConfiguration.fromConfiguration(jobConfig).isCheckpointingEnabled());
    }

    /**
     * A factory of fresh strategies for {@code jobConfig}, checked once.
     *
     * @throws IllegalConfigurationException if the strategy name is unknown or one of its values is malformed
     *     or out of range
     */
    public static RestartBackoffTimeStrategy.Factory createRestartBackoffTimeStrategyFactory(Configuration jobConfig,
            boolean checkpointingEnabled, LongSupplier clock) {
        Objects.requireNonNull(jobConfig, "jobConfig");
        Objects.requireNonNull(clock, "clock");
        Optional<RestartStrategyConfiguration> configured = RestartStrategies.fromConfiguration(jobConfig)
                .filter(c -> !(c instanceof FallbackRestartStrategyConfiguration));
        if (configured.isEmpty()) {
            return checkpointingEnabled
                    ? exponentialDelay(jobConfig, clock, exponentialDelayDefaults())
                    : NoRestartBackoffTimeStrategy.NoRestartBackoffTimeStrategyFactory.INSTANCE;
        }
        RestartStrategyConfiguration c = configured.get();
        if (c instanceof NoRestartStrategyConfiguration) {
            return NoRestartBackoffTimeStrategy.NoRestartBackoffTimeStrategyFactory.INSTANCE;
        } else if (c instanceof FixedDelayRestartStrategyConfiguration fixed) {
            return fixedDelay(jobConfig, fixed);
        } else if (c instanceof FailureRateRestartStrategyConfiguration rate) {
            return failureRate(jobConfig, clock, rate);
        } else if (c instanceof ExponentialDelayRestartStrategyConfiguration exponential) {
            return exponentialDelay(jobConfig, clock, exponential);
        }
        throw new IllegalStateException("Unhandled restart strategy " + c.getDescription());
    }

    private static ExponentialDelayRestartStrategyConfiguration exponentialDelayDefaults() {
        // The defaults of the options, read from an empty configuration so there is one source of them.
        return (ExponentialDelayRestartStrategyConfiguration) RestartStrategies.fromConfiguration(
                new Configuration().set(RestartStrategyOptions.RESTART_STRATEGY, "exponential-delay")).orElseThrow();
    }

    private static RestartBackoffTimeStrategy.Factory fixedDelay(Configuration conf,
            FixedDelayRestartStrategyConfiguration c) {
        check(conf, RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, c.getRestartAttempts() >= 0,
                "the number of restart attempts must be 0 or more");
        long delay = nonNegativeMillis(conf, RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY,
                c.getDurationBetweenAttempts());
        return new FixedDelayRestartBackoffTimeStrategy.FixedDelayRestartBackoffTimeStrategyFactory(
                c.getRestartAttempts(), delay);
    }

    private static RestartBackoffTimeStrategy.Factory failureRate(Configuration conf, LongSupplier clock,
            FailureRateRestartStrategyConfiguration c) {
        check(conf, RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL,
                c.getMaxFailureRate() >= 1, "at least 1 failure per interval must be allowed");
        long interval = c.getFailureIntervalDuration().toMillis();
        check(conf, RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL, interval >= 1,
                "the failure-rate interval must be at least 1 ms, e.g. 1 min");
        long delay = nonNegativeMillis(conf, RestartStrategyOptions.RESTART_STRATEGY_FAILURE_RATE_DELAY,
                c.getDelayBetweenAttemptsDuration());
        return new FailureRateRestartBackoffTimeStrategy.FailureRateRestartBackoffTimeStrategyFactory(clock,
                c.getMaxFailureRate(), interval, delay);
    }

    private static RestartBackoffTimeStrategy.Factory exponentialDelay(Configuration conf, LongSupplier clock,
            ExponentialDelayRestartStrategyConfiguration c) {
        long initial = c.getInitialBackoffDuration().toMillis();
        check(conf, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF, initial >= 1,
                "the initial backoff must be at least 1 ms, e.g. 1 s");
        long max = c.getMaxBackoffDuration().toMillis();
        check(conf, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF, max >= initial,
                String.format("the maximum backoff must not be below the initial backoff (%d ms, %s)", initial,
                        RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF.key()));
        double multiplier = c.getBackoffMultiplier();
        check(conf, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER,
                multiplier >= 1.0 && Double.isFinite(multiplier), "the backoff multiplier must be at least 1, e.g. 1.5");
        long reset = c.getResetBackoffDurationThreshold().toMillis();
        check(conf, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD, reset >= 1,
                "the reset-backoff threshold must be at least 1 ms, e.g. 1 h");
        double jitter = c.getJitterFactor();
        check(conf, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR,
                jitter >= 0.0 && jitter <= 1.0, "the jitter factor must be between 0 and 1, e.g. 0.1");
        check(conf, RestartStrategyOptions.RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS,
                c.getAttemptsBeforeResetBackoff() >= 0, "the number of attempts must be 0 or more");
        return new ExponentialDelayRestartBackoffTimeStrategy.ExponentialDelayRestartBackoffTimeStrategyFactory(clock,
                initial, max, multiplier, reset, jitter, c.getAttemptsBeforeResetBackoff());
    }

    private static long nonNegativeMillis(Configuration conf, ConfigOption<Duration> option, Duration value) {
        check(conf, option, !value.isNegative(), "the delay must be 0 ms or more, e.g. 1 s");
        return value.toMillis();
    }

    private static void check(Configuration conf, ConfigOption<?> option, boolean ok, String why) {
        if (ok) {
            return;
        }
        String usedKey = option.key();
        String raw = conf.toMap().get(usedKey);
        for (ConfigOption.FallbackKey fallback : option.fallbackKeys()) {
            if (raw == null) {
                usedKey = fallback.key();
                raw = conf.toMap().get(usedKey);
            }
        }
        if (raw == null) {
            usedKey = option.key();
            raw = String.valueOf(option.defaultValue());
        }
        throw new IllegalConfigurationException("Invalid value '%s' for configuration option '%s': %s.", raw, usedKey,
                why);
    }
}
