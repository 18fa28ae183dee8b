package dev.runnel.streaming.api.environment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.restartstrategy.RestartStrategies;
import dev.runnel.configuration.CheckpointingOptions;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.ExternalizedCheckpointRetention;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.configuration.RestartStrategyOptions;
import dev.runnel.core.execution.CheckpointingMode;
import dev.runnel.core.fs.Path;
import dev.runnel.runtime.checkpoint.CheckpointCoordinatorConfiguration;
import dev.runnel.runtime.executiongraph.failover.ExponentialDelayRestartBackoffTimeStrategy;
import dev.runnel.runtime.executiongraph.failover.FailureRateRestartBackoffTimeStrategy;
import dev.runnel.runtime.executiongraph.failover.FixedDelayRestartBackoffTimeStrategy;
import dev.runnel.runtime.executiongraph.failover.NoRestartBackoffTimeStrategy;
import dev.runnel.runtime.executiongraph.failover.RestartBackoffTimeStrategy;
import dev.runnel.runtime.executiongraph.failover.RestartBackoffTimeStrategyFactoryLoader;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.streaming.api.functions.sink.v2.DiscardingSink;
import java.net.URI;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Every checkpoint and restart setting of the API lands under Flink's key in the compiled job graph's
 * configuration and reads back as the engine reads it; a config.yaml with the same keys gives the same.
 */
class CheckpointConfigTest {

    private static JobGraph compile(StreamExecutionEnvironment env) {
        env.fromSequence(1, 10).sinkTo(new DiscardingSink<>());
        return env.getJobGraph("checkpoint-config");
    }

    private static StreamExecutionEnvironment configuredThroughTheApi() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.enableCheckpointing(30_000, CheckpointingMode.AT_LEAST_ONCE);
        CheckpointConfig cc = env.getCheckpointConfig();
        cc.setCheckpointTimeout(120_000);
        cc.setMinPauseBetweenCheckpoints(500);
        cc.setMaxConcurrentCheckpoints(2);
        cc.setTolerableCheckpointFailureNumber(3);
        cc.setExternalizedCheckpointRetention(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        cc.setCheckpointStorage("file:///tmp/ckpt");
        env.setDefaultSavepointDirectory("file:///tmp/sp");
        env.setRestartStrategy(RestartStrategies.fixedDelayRestart(4, Duration.ofSeconds(2)));
        return env;
    }

    @Test
    void eachSetterLandsAsTheFlinkKeyInTheJobGraphAndReadsBack() {
        JobGraph job = compile(configuredThroughTheApi());
        Map<String, String> keys = job.getConfiguration().toMap();
        assertThat(keys).containsEntry("execution.checkpointing.interval", "30 s")
                .containsEntry("execution.checkpointing.mode", "AT_LEAST_ONCE")
                .containsEntry("execution.checkpointing.timeout", "2 min")
                .containsEntry("execution.checkpointing.min-pause", "500 ms")
                .containsEntry("execution.checkpointing.max-concurrent-checkpoints", "2")
                .containsEntry("execution.checkpointing.tolerable-failed-checkpoints", "3")
                .containsEntry("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION")
                .containsEntry("execution.checkpointing.dir", "file:///tmp/ckpt")
                .containsEntry("execution.checkpointing.storage", "filesystem")
                .containsEntry("execution.checkpointing.savepoint-dir", "file:///tmp/sp")
                .containsEntry("restart-strategy.type", "fixed-delay")
                .containsEntry("restart-strategy.fixed-delay.attempts", "4")
                .containsEntry("restart-strategy.fixed-delay.delay", "2 s");

        CheckpointCoordinatorConfiguration c = CheckpointCoordinatorConfiguration.fromConfiguration(job.getConfiguration());
        assertThat(c.isCheckpointingEnabled()).isTrue();
        assertThat(c.getCheckpointInterval()).isEqualTo(30_000);
        assertThat(c.isExactlyOnce()).isFalse();
        assertThat(c.getCheckpointTimeout()).isEqualTo(120_000);
        assertThat(c.getMinPauseBetweenCheckpoints()).isEqualTo(500);
        assertThat(c.getMaxConcurrentCheckpoints()).isEqualTo(2);
        assertThat(c.getTolerableCheckpointFailureNumber()).isEqualTo(3);
        assertThat(c.getExternalizedCheckpointRetention()).isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        assertThat(c.getCheckpointStorage()).isEqualTo("filesystem");
        assertThat(c.getCheckpointDirectory()).isEqualTo("file:///tmp/ckpt");
        assertThat(c.getSavepointDirectory()).isEqualTo("file:///tmp/sp");

        RestartBackoffTimeStrategy restart = RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(
                job.getConfiguration(), c.isCheckpointingEnabled());
        assertThat(restart).isInstanceOf(FixedDelayRestartBackoffTimeStrategy.class);
        assertThat(restart.getBackoffTime()).isEqualTo(2_000);
    }

    @Test
    void theAlignedCheckpointTimeoutLandsAsFlinksKeyAndRejectsANegativeValue() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.enableCheckpointing(1_000);
        env.getCheckpointConfig().enableUnalignedCheckpoints();
        assertThat(env.getCheckpointConfig().getAlignedCheckpointTimeout()).isEqualTo(Duration.ZERO);
        env.getCheckpointConfig().setAlignedCheckpointTimeout(Duration.ofSeconds(5));
        JobGraph job = compile(env);
        assertThat(job.getConfiguration().toMap())
                .containsEntry("execution.checkpointing.aligned-checkpoint-timeout", "5 s");
        assertThat(CheckpointCoordinatorConfiguration.fromConfiguration(job.getConfiguration())
                .getAlignedCheckpointTimeout()).isEqualTo(5_000);
        assertThatThrownBy(() -> env.getCheckpointConfig().setAlignedCheckpointTimeout(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("aligned checkpoint timeout must be zero or positive");

        StreamExecutionEnvironment configured = StreamExecutionEnvironment.createLocalEnvironment(1);
        configured.configure(new Configuration().setString("execution.checkpointing.alignment-timeout", "7 s"),
                getClass().getClassLoader());
        assertThat(configured.getCheckpointConfig().getAlignedCheckpointTimeout()).isEqualTo(Duration.ofSeconds(7));
    }

    @Test
    void aConfigYamlWithFlinksKeysGivesTheSameResult() {
        Configuration yaml = new Configuration()
                .setString("execution.checkpointing.interval", "30s")
                .setString("execution.checkpointing.mode", "AT_LEAST_ONCE")
                .setString("execution.checkpointing.timeout", "PT2M")
                .setString("execution.checkpointing.min-pause", "500 ms")
                .setString("execution.checkpointing.max-concurrent-checkpoints", "2")
                .setString("execution.checkpointing.tolerable-failed-checkpoints", "3")
                .setString("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION")
                .setString("state.checkpoints.dir", "file:///tmp/ckpt")
                .setString("state.savepoints.dir", "file:///tmp/sp")
                .setString("restart-strategy.type", "fixeddelay")
                .setString("restart-strategy.fixed-delay.attempts", "4")
                .setString("restart-strategy.fixed-delay.delay", "2 s");
        JobGraph fromYaml = compile(StreamExecutionEnvironment.getExecutionEnvironment(yaml));
        JobGraph fromApi = compile(configuredThroughTheApi());
        assertThat(CheckpointCoordinatorConfiguration.fromConfiguration(fromYaml.getConfiguration()))
                .isEqualTo(CheckpointCoordinatorConfiguration.fromConfiguration(fromApi.getConfiguration()));
        assertThat(RestartStrategies.fromConfiguration(fromYaml.getConfiguration()))
                .isEqualTo(RestartStrategies.fromConfiguration(fromApi.getConfiguration()));

        // The API reads what the file set.
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(yaml);
        assertThat(env.getCheckpointInterval()).isEqualTo(30_000);
        assertThat(env.getCheckpointConfig().getCheckpointTimeout()).isEqualTo(120_000);
        assertThat(env.getCheckpointingConsistencyMode()).isEqualTo(CheckpointingMode.AT_LEAST_ONCE);
        assertThat(env.getDefaultSavepointDirectory()).isEqualTo(new Path("file:///tmp/sp"));
        assertThat(env.getRestartStrategy()).isEqualTo(RestartStrategies.fixedDelayRestart(4, 2_000));
    }

    @Test
    void configurePicksUpTheKeysAndLeavesTheRest() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.getCheckpointConfig().setMaxConcurrentCheckpoints(3);
        env.configure(new Configuration().set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(5))
                .set(RestartStrategyOptions.RESTART_STRATEGY, "failure-rate").setString("parallelism.default", "4"));
        assertThat(env.getCheckpointConfig().isCheckpointingEnabled()).isTrue();
        assertThat(env.getCheckpointInterval()).isEqualTo(5_000);
        assertThat(env.getCheckpointConfig().getMaxConcurrentCheckpoints()).isEqualTo(3);
        assertThat(env.getParallelism()).isEqualTo(4);
        assertThat(RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(env.getConfiguration()))
                .isInstanceOf(FailureRateRestartBackoffTimeStrategy.class);

        CheckpointConfig standalone = new CheckpointConfig();
        standalone.configure(new Configuration().setString("state.checkpoints.dir", "/ckpt")
                .setString("unrelated.key", "x"));
        assertThat(standalone.toConfiguration().toMap()).containsOnly(
                Map.entry("execution.checkpointing.dir", "/ckpt"));
    }

    @Test
    void theRestartDefaultFollowsWhetherTheJobCheckpoints() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        assertThat(env.getRestartStrategy()).isEqualTo(RestartStrategies.fallBackRestart());
        JobGraph plain = compile(env);
        assertThat(RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(plain.getConfiguration()))
                .isSameAs(NoRestartBackoffTimeStrategy.INSTANCE);

        StreamExecutionEnvironment checkpointing = StreamExecutionEnvironment.createLocalEnvironment(1);
        checkpointing.enableCheckpointing(1_000);
        JobGraph job = compile(checkpointing);
        assertThat(RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(job.getConfiguration()))
                .isInstanceOf(ExponentialDelayRestartBackoffTimeStrategy.class);

        checkpointing.setRestartStrategy(RestartStrategies.noRestart());
        assertThat(RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(
                checkpointing.getConfiguration())).isSameAs(NoRestartBackoffTimeStrategy.INSTANCE);
    }

    @Test
    void theDeprecatedNamesWriteTheSameKeys() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.enableCheckpointing(1_000, dev.runnel.streaming.api.CheckpointingMode.AT_LEAST_ONCE);
        CheckpointConfig cc = env.getCheckpointConfig();
        assertThat(cc.getCheckpointingConsistencyMode()).isEqualTo(CheckpointingMode.AT_LEAST_ONCE);
        assertThat(env.getCheckpointingMode()).isEqualTo(dev.runnel.streaming.api.CheckpointingMode.AT_LEAST_ONCE);
        cc.setCheckpointingMode(dev.runnel.streaming.api.CheckpointingMode.EXACTLY_ONCE);
        assertThat(env.getConfiguration().toMap()).containsEntry("execution.checkpointing.mode", "EXACTLY_ONCE");

        cc.enableExternalizedCheckpoints(CheckpointConfig.ExternalizedCheckpointCleanup.DELETE_ON_CANCELLATION);
        assertThat(cc.getExternalizedCheckpointRetention()).isEqualTo(ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION);
        cc.setExternalizedCheckpointCleanup(CheckpointConfig.ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
        assertThat(cc.getExternalizedCheckpointCleanup())
                .isEqualTo(CheckpointConfig.ExternalizedCheckpointCleanup.RETAIN_ON_CANCELLATION);
        assertThat(cc.isExternalizedCheckpointsEnabled()).isTrue();

        cc.setCheckpointStorage(URI.create("s3://bucket/ckpt"));
        assertThat(env.getConfiguration().toMap()).containsEntry("execution.checkpointing.dir", "s3://bucket/ckpt");
        cc.setCheckpointStorage(new Path("/var/ckpt"));
        assertThat(CheckpointCoordinatorConfiguration.fromConfiguration(env.getConfiguration()).getCheckpointDirectory())
                .endsWith("/var/ckpt");

        for (dev.runnel.streaming.api.CheckpointingMode old : dev.runnel.streaming.api.CheckpointingMode.values()) {
            assertThat(dev.runnel.streaming.api.CheckpointingMode.convertFromCheckpointingMode(
                    dev.runnel.streaming.api.CheckpointingMode.convertToCheckpointingMode(old))).isEqualTo(old);
        }
    }

    @Test
    void badSettersAndBadKeysAreRejectedWithTheValue() {
        CheckpointConfig cc = new CheckpointConfig();
        assertThat(cc.isCheckpointingEnabled()).isFalse();
        assertThat(cc.getCheckpointInterval()).isEqualTo(-1);
        assertThatThrownBy(() -> cc.setCheckpointInterval(5)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 10 ms, was 5 ms");
        assertThatThrownBy(() -> cc.setCheckpointTimeout(0)).hasMessageContaining("at least 10 ms, was 0 ms");
        assertThatThrownBy(() -> cc.setMinPauseBetweenCheckpoints(-1)).hasMessageContaining("was -1 ms");
        assertThatThrownBy(() -> cc.setMaxConcurrentCheckpoints(0)).hasMessageContaining("at least 1, was 0");
        assertThatThrownBy(() -> cc.setTolerableCheckpointFailureNumber(-1)).hasMessageContaining("was -1");
        assertThatThrownBy(() -> StreamExecutionEnvironment.createLocalEnvironment(1).enableCheckpointing(0))
                .hasMessageContaining("at least 10 ms");
        assertThat(cc.toConfiguration().toMap()).isEmpty();

        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                new Configuration().setString("execution.checkpointing.interval", "5 ms"));
        JobGraph job = compile(env);
        assertThatThrownBy(() -> CheckpointCoordinatorConfiguration.fromConfiguration(job.getConfiguration()))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'execution.checkpointing.interval'").hasMessageContaining("'5 ms'")
                .hasMessageContaining("at least 10 ms");
        Configuration badRestart = new Configuration().setString("restart-strategy.type", "exponential-delay")
                .setString("restart-strategy.exponential-delay.jitter-factor", "lots");
        assertThatThrownBy(() -> RestartBackoffTimeStrategyFactoryLoader.createRestartBackoffTimeStrategy(badRestart,
                true)).isInstanceOf(IllegalConfigurationException.class).hasMessageContaining("'lots'")
                .hasMessageContaining("'restart-strategy.exponential-delay.jitter-factor'")
                .hasMessageContaining("1.5");
    }
}
