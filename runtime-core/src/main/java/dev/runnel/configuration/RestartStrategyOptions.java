package dev.runnel.configuration;

import java.time.Duration;

/**
 * How a failed job is restarted, with Flink 1.20's class, constant names, keys and defaults. Constants only.
 *
 * <p>{@code restart-strategy.type} names the strategy; each has its own options below. When it is unset,
 * Flink (and Runnel) restart with {@code exponential-delay} if the job checkpoints and not at all otherwise
 * (see {@code RestartBackoffTimeStrategyFactoryLoader}).
 *
 * <pre>
 *   restart-strategy.type: none | off | disable | fixed-delay | fixeddelay | failure-rate | failurerate
 *                          | exponential-delay | exponentialdelay
 *   fixed-delay.attempts 1, fixed-delay.delay 1 s
 *   failure-rate.max-failures-per-interval 1, failure-rate.failure-rate-interval 1 min, failure-rate.delay 1 s
 *   exponential-delay.initial-backoff 1 s, .max-backoff 1 min, .backoff-multiplier 1.5,
 *       .reset-backoff-threshold 1 h, .jitter-factor 0.1, .attempts-before-reset-backoff Integer.MAX_VALUE
 * </pre>
 */
public final class RestartStrategyOptions {

    /** The strategy's name (see the class comment); unset: decided by whether the job checkpoints. */
    public static final ConfigOption<String> RESTART_STRATEGY = ConfigOptions
            .key("restart-strategy.type")
            .stringType()
            .noDefaultValue()
            .withDeprecatedKeys("restart-strategy")
            .withDescription("The restart strategy: none/off/disable, fixed-delay/fixeddelay, "
                    + "failure-rate/failurerate or exponential-delay/exponentialdelay. Unset: exponential-delay if "
                    + "checkpointing is enabled, else none.");

    public static final ConfigOption<Integer> RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS = ConfigOptions
            .key("restart-strategy.fixed-delay.attempts")
            .intType()
            .defaultValue(1)
            .withDescription("The number of restarts fixed-delay allows before the job is declared failed.");

    public static final ConfigOption<Duration> RESTART_STRATEGY_FIXED_DELAY_DELAY = ConfigOptions
            .key("restart-strategy.fixed-delay.delay")
            .durationType()
            .defaultValue(Duration.ofSeconds(1))
            .withDescription("The delay between two restarts of fixed-delay.");

    public static final ConfigOption<Integer> RESTART_STRATEGY_FAILURE_RATE_MAX_FAILURES_PER_INTERVAL = ConfigOptions
            .key("restart-strategy.failure-rate.max-failures-per-interval")
            .intType()
            .defaultValue(1)
            .withDescription("The number of failures within one failure-rate interval after which the job is "
                    + "declared failed instead of restarted.");

    public static final ConfigOption<Duration> RESTART_STRATEGY_FAILURE_RATE_FAILURE_RATE_INTERVAL = ConfigOptions
            .key("restart-strategy.failure-rate.failure-rate-interval")
            .durationType()
            .defaultValue(Duration.ofMinutes(1))
            .withDescription("The sliding time window over which failure-rate counts failures.");

    public static final ConfigOption<Duration> RESTART_STRATEGY_FAILURE_RATE_DELAY = ConfigOptions
            .key("restart-strategy.failure-rate.delay")
            .durationType()
            .defaultValue(Duration.ofSeconds(1))
            .withDescription("The delay between two restarts of failure-rate.");

    public static final ConfigOption<Duration> RESTART_STRATEGY_EXPONENTIAL_DELAY_INITIAL_BACKOFF = ConfigOptions
            .key("restart-strategy.exponential-delay.initial-backoff")
            .durationType()
            .defaultValue(Duration.ofSeconds(1))
            .withDescription("The delay before the first restart of exponential-delay.");

    public static final ConfigOption<Duration> RESTART_STRATEGY_EXPONENTIAL_DELAY_MAX_BACKOFF = ConfigOptions
            .key("restart-strategy.exponential-delay.max-backoff")
            .durationType()
            .defaultValue(Duration.ofMinutes(1))
            .withDescription("The longest delay exponential-delay waits between two restarts.");

    public static final ConfigOption<Double> RESTART_STRATEGY_EXPONENTIAL_DELAY_BACKOFF_MULTIPLIER = ConfigOptions
            .key("restart-strategy.exponential-delay.backoff-multiplier")
            .doubleType()
            .defaultValue(1.5)
            .withDescription("The factor the delay of exponential-delay grows by after each failure; above 1.");

    public static final ConfigOption<Duration> RESTART_STRATEGY_EXPONENTIAL_DELAY_RESET_BACKOFF_THRESHOLD =
            ConfigOptions.key("restart-strategy.exponential-delay.reset-backoff-threshold")
                    .durationType()
                    .defaultValue(Duration.ofHours(1))
                    .withDescription("How long a job must run without failure (after its restart delay) for "
                            + "exponential-delay to start again from the initial backoff and attempt count.");

    public static final ConfigOption<Double> RESTART_STRATEGY_EXPONENTIAL_DELAY_JITTER_FACTOR = ConfigOptions
            .key("restart-strategy.exponential-delay.jitter-factor")
            .doubleType()
            .defaultValue(0.1)
            .withDescription("The fraction of the delay, between 0 and 1, added or subtracted at random so that "
                    + "many jobs do not restart in step.");

    public static final ConfigOption<Integer> RESTART_STRATEGY_EXPONENTIAL_DELAY_ATTEMPTS = ConfigOptions
            .key("restart-strategy.exponential-delay.attempts-before-reset-backoff")
            .intType()
            .defaultValue(Integer.MAX_VALUE)
            .withDescription("The number of restarts exponential-delay allows before the job is declared failed, "
                    + "counted since the backoff was last reset.");

    private RestartStrategyOptions() {}
}
