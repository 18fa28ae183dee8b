package dev.runnel.api.common.restartstrategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class RestartStrategiesTest {

    @Test
    void eachStrategyWritesFlinksKeysAndReadsBackEqual() {
        for (RestartStrategies.RestartStrategyConfiguration strategy : List.of(RestartStrategies.noRestart(),
                RestartStrategies.fixedDelayRestart(3, 10_000),
                RestartStrategies.failureRateRestart(2, Duration.ofMinutes(5), Duration.ofSeconds(3)),
                RestartStrategies.exponentialDelayRestart(Duration.ofMillis(10), Duration.ofSeconds(2), 2.0,
                        Duration.ofMinutes(30), 0.25))) {
            Configuration conf = new Configuration();
            strategy.writeTo(conf);
            assertThat(RestartStrategies.fromConfiguration(conf)).as(strategy.getDescription()).contains(strategy);
        }
        Configuration conf = new Configuration();
        RestartStrategies.fixedDelayRestart(3, Duration.ofSeconds(10)).writeTo(conf);
        assertThat(conf.toMap()).containsEntry("restart-strategy.type", "fixed-delay")
                .containsEntry("restart-strategy.fixed-delay.attempts", "3")
                .containsEntry("restart-strategy.fixed-delay.delay", "10 s");
    }

    @Test
    void writingAStrategyReplacesTheKeysOfTheOneBefore() {
        Configuration conf = new Configuration();
        RestartStrategies.fixedDelayRestart(3, 10).writeTo(conf);
        RestartStrategies.noRestart().writeTo(conf);
        assertThat(conf.toMap()).containsOnlyKeys("restart-strategy.type");
        RestartStrategies.fallBackRestart().writeTo(conf);
        assertThat(conf.toMap()).isEmpty();
        assertThat(RestartStrategies.fromConfiguration(conf)).isEmpty();
    }

    @Test
    void flinksAliasesAndDefaultsAreRead() {
        for (String alias : List.of("none", "off", "disable", "NONE")) {
            assertThat(read(alias)).isInstanceOf(RestartStrategies.NoRestartStrategyConfiguration.class);
        }
        RestartStrategies.FixedDelayRestartStrategyConfiguration fixed =
                (RestartStrategies.FixedDelayRestartStrategyConfiguration) read("fixeddelay");
        assertThat(fixed.getRestartAttempts()).isEqualTo(1);
        assertThat(fixed.getDurationBetweenAttempts()).isEqualTo(Duration.ofSeconds(1));
        RestartStrategies.FailureRateRestartStrategyConfiguration rate =
                (RestartStrategies.FailureRateRestartStrategyConfiguration) read("failurerate");
        assertThat(rate.getMaxFailureRate()).isEqualTo(1);
        assertThat(rate.getFailureIntervalDuration()).isEqualTo(Duration.ofMinutes(1));
        assertThat(rate.getDelayBetweenAttemptsDuration()).isEqualTo(Duration.ofSeconds(1));
        RestartStrategies.ExponentialDelayRestartStrategyConfiguration exp =
                (RestartStrategies.ExponentialDelayRestartStrategyConfiguration) read("exponentialdelay");
        assertThat(exp.getInitialBackoffDuration()).isEqualTo(Duration.ofSeconds(1));
        assertThat(exp.getMaxBackoffDuration()).isEqualTo(Duration.ofMinutes(1));
        assertThat(exp.getBackoffMultiplier()).isEqualTo(1.5);
        assertThat(exp.getResetBackoffDurationThreshold()).isEqualTo(Duration.ofHours(1));
        assertThat(exp.getJitterFactor()).isEqualTo(0.1);
        assertThat(exp.getAttemptsBeforeResetBackoff()).isEqualTo(Integer.MAX_VALUE);
        assertThat(read("exponential-delay")).isEqualTo(exp);
    }

    @Test
    void anUnknownNameOrAMalformedValueIsNamed() {
        assertThatThrownBy(() -> read("sometimes")).isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'sometimes'").hasMessageContaining("'restart-strategy.type'")
                .hasMessageContaining("fixed-delay").hasMessageContaining("exponential-delay");
        Configuration conf = new Configuration().setString("restart-strategy", "bogus");
        assertThatThrownBy(() -> RestartStrategies.fromConfiguration(conf)).hasMessageContaining("'restart-strategy'");
        Configuration attempts = new Configuration().setString("restart-strategy.type", "fixed-delay")
                .setString("restart-strategy.fixed-delay.attempts", "three");
        assertThatThrownBy(() -> RestartStrategies.fromConfiguration(attempts))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'three'").hasMessageContaining("'restart-strategy.fixed-delay.attempts'");
    }

    private static RestartStrategies.RestartStrategyConfiguration read(String type) {
        return RestartStrategies.fromConfiguration(new Configuration().setString("restart-strategy.type", type))
                .orElseThrow();
    }
}
