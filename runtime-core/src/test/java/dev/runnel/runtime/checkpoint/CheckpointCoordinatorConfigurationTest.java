package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.CheckpointingOptions;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.ExternalizedCheckpointRetention;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.core.execution.CheckpointingMode;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CheckpointCoordinatorConfigurationTest {

    @Test
    void anEmptyConfigurationGivesFlinksDefaultsWithoutCheckpoints() {
        CheckpointCoordinatorConfiguration c = CheckpointCoordinatorConfiguration.fromConfiguration(new Configuration());
        assertThat(c.isCheckpointingEnabled()).isFalse();
        assertThat(c.getCheckpointInterval()).isEqualTo(CheckpointCoordinatorConfiguration.DISABLED_CHECKPOINT_INTERVAL);
        assertThat(c.getCheckpointTimeout()).isEqualTo(600_000L);
        assertThat(c.getMinPauseBetweenCheckpoints()).isZero();
        assertThat(c.getMaxConcurrentCheckpoints()).isEqualTo(1);
        assertThat(c.getTolerableCheckpointFailureNumber()).isZero();
        assertThat(c.isExactlyOnce()).isTrue();
        assertThat(c.isUnalignedCheckpointsEnabled()).isFalse();
        assertThat(c.getAlignedCheckpointTimeout()).isZero();
        assertThat(c.getExternalizedCheckpointRetention())
                .isEqualTo(ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS);
        assertThat(c.getCheckpointStorage()).isEqualTo("jobmanager");
        assertThat(c.getCheckpointDirectory()).isNull();
        assertThat(c.getSavepointDirectory()).isNull();
        assertThat(c.getMaxRetainedCheckpoints()).isEqualTo(1);
        assertThat(c.isIncrementalCheckpoints()).isFalse();
        assertThat(c.getInlineThresholdBytes()).isEqualTo(20 * 1024);
        assertThat(c.toString()).contains("interval=disabled");
    }

    @Test
    void flinksKeysAsAConfigYamlWritesThemAreRead() {
        Configuration conf = Configuration.fromMap(Map.ofEntries(
                Map.entry("execution.checkpointing.interval", "30 s"),
                Map.entry("execution.checkpointing.timeout", "PT2M"),
                Map.entry("execution.checkpointing.min-pause", "500 ms"),
                Map.entry("execution.checkpointing.max-concurrent-checkpoints", "2"),
                Map.entry("execution.checkpointing.tolerable-failed-checkpoints", "3"),
                Map.entry("execution.checkpointing.mode", "AT_LEAST_ONCE"),
                Map.entry("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION"),
                Map.entry("state.checkpoints.dir", "file:///tmp/ckpt"),
                Map.entry("state.savepoints.dir", "file:///tmp/sp"),
                Map.entry("state.checkpoints.num-retained", "3"),
                Map.entry("state.backend.incremental", "true"),
                Map.entry("state.storage.fs.memory-threshold", "64kb")));
        CheckpointCoordinatorConfiguration c = CheckpointCoordinatorConfiguration.fromConfiguration(conf);
        assertThat(c.getCheckpointInterval()).isEqualTo(30_000L);
        assertThat(c.getCheckpointTimeout()).isEqualTo(120_000L);
        assertThat(c.getMinPauseBetweenCheckpoints()).isEqualTo(500L);
        assertThat(c.getMaxConcurrentCheckpoints()).isEqualTo(2);
        assertThat(c.getTolerableCheckpointFailureNumber()).isEqualTo(3);
        assertThat(c.getCheckpointingMode()).isEqualTo(CheckpointingMode.AT_LEAST_ONCE);
        assertThat(c.getExternalizedCheckpointRetention())
                .isEqualTo(ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        assertThat(c.getCheckpointDirectory()).isEqualTo("file:///tmp/ckpt");
        assertThat(c.getCheckpointStorage()).isEqualTo("filesystem");
        assertThat(c.getSavepointDirectory()).isEqualTo("file:///tmp/sp");
        assertThat(c.getMaxRetainedCheckpoints()).isEqualTo(3);
        assertThat(c.isIncrementalCheckpoints()).isTrue();
        assertThat(c.getInlineThresholdBytes()).isEqualTo(64 * 1024);

        // The same settings under Flink 1.20's new names, written through the typed options, read the same.
        Configuration typed = new Configuration()
                .set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofSeconds(30))
                .set(CheckpointingOptions.CHECKPOINTING_TIMEOUT, Duration.ofMinutes(2))
                .set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS, Duration.ofMillis(500))
                .set(CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS, 2)
                .set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, 3)
                .set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.AT_LEAST_ONCE)
                .set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                        ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION)
                .set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, "file:///tmp/ckpt")
                .set(CheckpointingOptions.SAVEPOINT_DIRECTORY, "file:///tmp/sp")
                .set(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, 3)
                .set(CheckpointingOptions.INCREMENTAL_CHECKPOINTS, true)
                .set(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD, dev.runnel.configuration.MemorySize.ofKibiBytes(64));
        assertThat(typed.toMap()).containsKeys("execution.checkpointing.dir", "execution.checkpointing.savepoint-dir",
                "execution.checkpointing.num-retained", "execution.checkpointing.incremental",
                "execution.checkpointing.data-inline-threshold");
        assertThat(CheckpointCoordinatorConfiguration.fromConfiguration(typed)).isEqualTo(c);
    }

    @Test
    void zeroOrNegativeIntervalsMeanNoCheckpoints() {
        for (String off : new String[] {"-1", "0", "0 ms", "-1 ms"}) {
            Configuration conf = new Configuration().setString("execution.checkpointing.interval", off);
            assertThat(CheckpointCoordinatorConfiguration.fromConfiguration(conf).isCheckpointingEnabled()).as(off)
                    .isFalse();
        }
        Configuration conf = new Configuration().setString("execution.checkpointing.interval", "10 ms");
        assertThat(CheckpointCoordinatorConfiguration.fromConfiguration(conf).getCheckpointInterval()).isEqualTo(10);
    }

    @Test
    void unalignedCheckpointsOnlyApplyToExactlyOnce() {
        Configuration conf = new Configuration().set(CheckpointingOptions.ENABLE_UNALIGNED, true);
        assertThat(CheckpointCoordinatorConfiguration.fromConfiguration(conf).isUnalignedCheckpointsEnabled()).isTrue();
        conf.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingMode.AT_LEAST_ONCE);
        assertThat(CheckpointCoordinatorConfiguration.fromConfiguration(conf).isUnalignedCheckpointsEnabled())
                .isFalse();
    }

    @Test
    void theAlignedCheckpointTimeoutIsReadFromTheTypedOptionItsKeyAndFlinksDeprecatedKey() {
        Configuration typed = new Configuration().set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT,
                Duration.ofSeconds(30));
        Configuration key = new Configuration().setString("execution.checkpointing.aligned-checkpoint-timeout", "30 s");
        Configuration deprecated = new Configuration().setString("execution.checkpointing.alignment-timeout", "30000");
        for (Configuration conf : java.util.List.of(typed, key, deprecated)) {
            assertThat(CheckpointCoordinatorConfiguration.fromConfiguration(conf).getAlignedCheckpointTimeout())
                    .as(conf.toString()).isEqualTo(30_000L);
        }
        assertThat(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT.defaultValue()).isEqualTo(Duration.ZERO);
        assertInvalid("execution.checkpointing.aligned-checkpoint-timeout", "-1 s", "0 (checkpoints start unaligned)");
    }

    @Test
    void badValuesFailNamingTheKeyTheValueAndWhatIsAllowed() {
        assertInvalid("execution.checkpointing.interval", "5 ms", "at least 10 ms");
        assertInvalid("execution.checkpointing.interval", "often", "10 min");
        assertInvalid("execution.checkpointing.timeout", "1 ms", "at least 10 ms");
        assertInvalid("execution.checkpointing.min-pause", "-5 ms", "zero or positive");
        assertInvalid("execution.checkpointing.max-concurrent-checkpoints", "0", "at least 1");
        assertInvalid("execution.checkpointing.tolerable-failed-checkpoints", "-2", "0 or more");
        assertInvalid("execution.checkpointing.mode", "twice", "EXACTLY_ONCE");
        assertInvalid("execution.checkpointing.externalized-checkpoint-retention", "keep", "RETAIN_ON_CANCELLATION");
        assertInvalid("state.checkpoints.num-retained", "0", "at least 1");
        assertInvalid("state.storage.fs.memory-threshold", "2mb", "between 0 and 1 mb");
        assertInvalid("execution.checkpointing.storage", "s3", "'jobmanager' or 'filesystem'");
        assertInvalid("execution.checkpointing.storage", "filesystem", "execution.checkpointing.dir");
    }

    private static void assertInvalid(String key, String value, String allowed) {
        Configuration conf = new Configuration().setString(key, value);
        assertThatThrownBy(() -> CheckpointCoordinatorConfiguration.fromConfiguration(conf))
                .isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("'" + key + "'").hasMessageContaining("'" + value + "'")
                .hasMessageContaining(allowed);
    }
}
