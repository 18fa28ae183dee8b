package dev.runnel.runtime.executiongraph.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.restartstrategy.RestartStrategies;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class RestartBackoffTimeStrategyFactoryLoaderTest {

    private final Exception failure = new Exception("boom");

    @Test
    void withoutAStrategyJobsThatCheckpointGetExponentialDelayAndOthersNone() {
        RestartBackoffTimeStrategy checkpointing =
                RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(new Configuration(), true);
        assertThat(checkpointing).isInstanceOf(ExponentialDelayRestartBackoffTimeStrategy.class);
        checkpointing.notifyFailure(failure);
        assertThat(checkpointing.canRestart()).isTrue();
        assertThat(checkpointing.getBackoffTime()).isBetween(900L, 1_100L); // 1 s, jitter 0.1

        assertThat(RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(new Configuration(), false))
                .isSameAs(NoRestartBackoffTimeStrategy.INSTANCE);
        assertThat(RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(
                new Configuration().setString("execution.checkpointing.interval", "1 min")))
                .isInstanceOf(ExponentialDelayRestartBackoffTimeStrategy.class);
    }

    @Test
    void aConfiguredStrategyWinsOverTheDefault() {
        Configuration conf = new Configuration().setString("restart-strategy.type", "none");
        assertThat(RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(conf, true))
                .isSameAs(NoRestartBackoffTimeStrategy.INSTANCE);

        Configuration fixed = new Configuration().setString("restart-strategy.type", "fixed-delay")
                .setString("restart-strategy.fixed-delay.attempts", "2")
                .setString("restart-strategy.fixed-delay.delay", "250 ms");
        RestartBackoffTimeStrategy s = RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(fixed,
                false);
        assertThat(s).isInstanceOf(FixedDelayRestartBackoffTimeStrategy.class);
        assertThat(s.getBackoffTime()).isEqualTo(250);
        s.notifyFailure(failure);
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isTrue();
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isFalse();

        Configuration rate = new Configuration().setString("restart-strategy.type", "failurerate")
                .setString("restart-strategy.failure-rate.max-failures-per-interval", "1")
                .setString("restart-strategy.failure-rate.failure-rate-interval", "10 s");
        ManualMillisClock clock = new ManualMillisClock(0);
        RestartBackoffTimeStrategy r = RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(rate,
                false, clock);
        assertThat(r).isInstanceOf(FailureRateRestartBackoffTimeStrategy.class);
        assertThat(r.getBackoffTime()).isEqualTo(1_000);
        r.notifyFailure(failure);
        clock.advance(5_000);
        r.notifyFailure(failure);
        assertThat(r.canRestart()).isFalse();
    }

    @Test
    void theProgrammaticApiAndConfigYamlKeysGiveTheSameStrategy() {
        Configuration programmatic = new Configuration();
        RestartStrategies.exponentialDelayRestart(Duration.ofMillis(10), Duration.ofMillis(40), 2.0,
                Duration.ofSeconds(1), 0.0).writeTo(programmatic);
        Configuration yaml = new Configuration().setString("restart-strategy.type", "exponential-delay")
                .setString("restart-strategy.exponential-delay.initial-backoff", "10 ms")
                .setString("restart-strategy.exponential-delay.max-backoff", "40 ms")
                .setString("restart-strategy.exponential-delay.backoff-multiplier", "2.0")
                .setString("restart-strategy.exponential-delay.reset-backoff-threshold", "1 s")
                .setString("restart-strategy.exponential-delay.jitter-factor", "0");
        for (Configuration conf : new Configuration[] {programmatic, yaml}) {
            ManualMillisClock clock = new ManualMillisClock(0);
            RestartBackoffTimeStrategy s = RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(
                    conf, false, clock);
            long[] delays = new long[4];
            for (int i = 0; i < delays.length; i++) {
                s.notifyFailure(failure);
                delays[i] = s.getBackoffTime();
                clock.advance(1);
            }
            assertThat(delays).containsExactly(10, 20, 40, 40);
        }
    }

    @Test
    void outOfRangeValuesNameTheKeyTheValueAndTheRange() {
        assertInvalid("fixed-delay", "restart-strategy.fixed-delay.attempts", "-1", "0 or more");
        assertInvalid("fixed-delay", "restart-strategy.fixed-delay.delay", "-1 s", "0 ms or more");
        assertInvalid("failure-rate", "restart-strategy.failure-rate.max-failures-per-interval", "0", "at least 1");
        assertInvalid("failure-rate", "restart-strategy.failure-rate.failure-rate-interval", "0 s", "at least 1 ms");
        assertInvalid("exponential-delay", "restart-strategy.exponential-delay.initial-backoff", "0 ms", "at least 1 ms");
        assertInvalid("exponential-delay", "restart-strategy.exponential-delay.max-backoff", "10 ms",
                "not be below the initial backoff");
        assertInvalid("exponential-delay", "restart-strategy.exponential-delay.backoff-multiplier", "0.5", "at least 1");
        assertInvalid("exponential-delay", "restart-strategy.exponential-delay.jitter-factor", "2", "between 0 and 1");
        assertInvalid("exponential-delay", "restart-strategy.exponential-delay.reset-backoff-threshold", "0 ms",
                "at least 1 ms");
        assertInvalid("exponential-delay", "restart-strategy.exponential-delay.attempts-before-reset-backoff", "-3",
                "0 or more");
        assertThatThrownBy(() -> RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(
                new Configuration().setString("restart-strategy.type", "retry"), true))
                .isInstanceOf(IllegalConfigurationException.class).hasMessageContaining("'retry'")
                .hasMessageContaining("fixed-delay, fixeddelay");
    }

    private static void assertInvalid(String type, String key, String value, String allowed) {
        Configuration conf = new Configuration().setString("restart-strategy.type", type).setString(key, value);
        assertThatThrownBy(() -> RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(conf, false))
                .isInstanceOf(IllegalConfigurationException.class).hasMessageContaining("'" + key + "'")
                .hasMessageContaining("'" + value + "'").hasMessageContaining(allowed);
    }
}
