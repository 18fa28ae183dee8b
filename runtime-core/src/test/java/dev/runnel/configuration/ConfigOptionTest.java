package dev.runnel.configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class ConfigOptionTest {

    private static final ConfigOption<Duration> TIMEOUT = ConfigOptions.key("x.timeout").durationType()
            .defaultValue(Duration.ofMinutes(10)).withDeprecatedKeys("old.timeout", "older.timeout")
            .withDescription("a timeout");

    @Test
    void durationsParseInFlinksSyntaxAndIso8601() {
        Configuration conf = new Configuration();
        for (String[] c : new String[][] {{"10 min", "PT10M"}, {"500 ms", "PT0.5S"}, {"1 s", "PT1S"}, {"10s", "PT10S"},
                {"PT10S", "PT10S"}, {"pt1m", "PT1M"}, {"2 hours", "PT2H"}, {"1500", "PT1.5S"}, {"-1", "PT-0.001S"},
                {"1 d", "PT24H"}}) {
            conf.setString("x.timeout", c[0]);
            assertThat(conf.get(TIMEOUT)).as(c[0]).isEqualTo(Duration.parse(c[1]));
        }
    }

    @Test
    void aDurationIsWrittenInItsLargestExactUnitAndReadsBack() {
        Configuration conf = new Configuration().set(TIMEOUT, Duration.ofMinutes(10));
        assertThat(conf.toMap()).containsEntry("x.timeout", "10 min");
        conf.set(TIMEOUT, Duration.ofMillis(1500));
        assertThat(conf.toMap()).containsEntry("x.timeout", "1500 ms");
        assertThat(conf.get(TIMEOUT)).isEqualTo(Duration.ofMillis(1500));
    }

    @Test
    void fallbackKeysAreReadInOrderWhenTheKeyIsAbsent() {
        Configuration conf = new Configuration().setString("older.timeout", "3 s");
        assertThat(conf.get(TIMEOUT)).isEqualTo(Duration.ofSeconds(3));
        assertThat(conf.contains(TIMEOUT)).isTrue();
        conf.setString("old.timeout", "2 s");
        assertThat(conf.get(TIMEOUT)).isEqualTo(Duration.ofSeconds(2));
        conf.set(TIMEOUT, Duration.ofSeconds(1));
        assertThat(conf.get(TIMEOUT)).isEqualTo(Duration.ofSeconds(1));
        assertThat(conf.removeConfig(TIMEOUT)).isTrue();
        assertThat(conf.toMap()).isEmpty();
        assertThat(conf.get(TIMEOUT)).isEqualTo(Duration.ofMinutes(10));
        assertThat(conf.getOptional(TIMEOUT)).isEmpty();
    }

    @Test
    void aMalformedValueNamesTheKeyItWasReadFromAndTheAcceptedSyntax() {
        Configuration conf = new Configuration().setString("old.timeout", "ten minutes");
        assertThatThrownBy(() -> conf.get(TIMEOUT)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'ten minutes'").hasMessageContaining("'old.timeout'")
                .hasMessageContaining("10 min").hasMessageContaining("PT10S");
        conf.setString("old.timeout", "10 parsecs");
        assertThatThrownBy(() -> conf.get(TIMEOUT)).hasMessageContaining("parsecs");
    }

    @Test
    void memorySizesAndEnumsAndNoDefaultOptions() {
        ConfigOption<MemorySize> size = ConfigOptions.key("x.size").memoryType().defaultValue(MemorySize.ofKibiBytes(20));
        ConfigOption<String> dir = ConfigOptions.key("x.dir").stringType().noDefaultValue();
        ConfigOption<ExternalizedCheckpointRetention> retention = ConfigOptions.key("x.retention")
                .enumType(ExternalizedCheckpointRetention.class)
                .defaultValue(ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS);
        Configuration conf = new Configuration();
        assertThat(conf.get(size)).isEqualTo(MemorySize.ofKibiBytes(20));
        assertThat(conf.get(dir)).isNull();
        assertThat(dir.hasDefaultValue()).isFalse();
        conf.set(size, MemorySize.ofKibiBytes(64)).set(retention, ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
        assertThat(conf.toMap()).containsEntry("x.size", "64 kb").containsEntry("x.retention", "RETAIN_ON_CANCELLATION");
        conf.setString("x.retention", "delete_on_cancellation");
        assertThat(conf.get(retention)).isEqualTo(ExternalizedCheckpointRetention.DELETE_ON_CANCELLATION);
        conf.setString("x.retention", "sometimes");
        assertThatThrownBy(() -> conf.get(retention)).hasMessageContaining("'x.retention'")
                .hasMessageContaining("RETAIN_ON_CANCELLATION");
    }

    @Test
    void theOlderFactoriesKeepWorking() {
        ConfigOption<Integer> n = ConfigOption.intOption("x.n", 3, "n");
        Configuration conf = new Configuration();
        assertThat(conf.get(n)).isEqualTo(3);
        assertThat(conf.contains(n)).isFalse();
        conf.set(n, 5);
        assertThat(conf.toMap()).containsEntry("x.n", "5");
        conf.setString("x.n", "five");
        assertThatThrownBy(() -> conf.get(n)).hasMessageContaining("'five'").hasMessageContaining("'x.n'");
    }
}
