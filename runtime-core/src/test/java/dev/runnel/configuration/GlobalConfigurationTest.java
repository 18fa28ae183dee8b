package dev.runnel.configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class GlobalConfigurationTest {

    @Test
    void readsFlatKeysValuesQuotesAndComments(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("config.yaml"), """
                # a comment
                taskmanager.count: 2
                state.backend: "rocksdb"   # trailing comment
                io.tmp.dirs: '/tmp/a#b'
                empty.value:
                """);
        Configuration conf = GlobalConfiguration.loadConfiguration(dir.toString());
        assertThat(conf.toMap()).containsEntry("taskmanager.count", "2").containsEntry("state.backend", "rocksdb")
                .containsEntry("io.tmp.dirs", "/tmp/a#b").containsEntry("empty.value", "").hasSize(4);
    }

    @Test
    void aMalformedLineOrAMissingFileIsNamed(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("config.yaml"), "good: 1\nthis is not yaml\n");
        assertThatThrownBy(() -> GlobalConfiguration.loadConfiguration(dir.toString()))
                .hasMessageContaining("config.yaml line 2").hasMessageContaining("'this is not yaml'");
        assertThatThrownBy(() -> GlobalConfiguration.loadConfiguration(dir.resolve("nowhere").toString()))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("RUNNEL_CONF_DIR");
    }

    @Test
    void runnelYamlComesFirstAndConfigYamlIsTheFallback(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("config.yaml"), "rest.port: 9000\nonly.in.flink: yes\n");
        assertThat(GlobalConfiguration.loadConfiguration(dir.toString()).toMap())
                .containsEntry("rest.port", "9000").containsEntry("only.in.flink", "yes");

        Files.writeString(dir.resolve("runnel.yaml"), "rest.port: 8081\n");
        assertThat(GlobalConfiguration.loadConfiguration(dir.toString()).toMap())
                .containsEntry("rest.port", "8081").doesNotContainKey("only.in.flink");
    }

    @Test
    void aMissingFileNamesRunnelYaml(@TempDir Path dir) {
        assertThatThrownBy(() -> GlobalConfiguration.loadConfiguration(dir.toString()))
                .isInstanceOf(UncheckedIOException.class).hasMessageContaining("runnel.yaml");
    }
}
