package dev.runnel.contrib.streaming.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendFactory;
import dev.runnel.runtime.state.rocksdb.RocksDBKeyedStateBackend;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Selecting the RocksDB store by name, and how its options are read. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RocksDBStateBackendFactoryTest {

    @TempDir
    Path tmp;

    private KeyedStateBackendParameters<Integer> parameters(Configuration conf) {
        return new KeyedStateBackendParameters<>("op", "op", 1, IntSerializer.INSTANCE, 128, KeyGroupRange.of(0, 127),
                List.of(), new SerializerConfig(), conf, List.of(tmp.resolve("task-local").toFile()), null);
    }

    @Test
    void serviceLoaderFindsTheStoreUnderItsName() {
        StateBackendFactory found = null;
        for (StateBackendFactory factory : ServiceLoader.load(StateBackendFactory.class)) {
            if (factory.name().equals("rocksdb")) {
                found = factory;
            }
        }
        assertThat(found).isInstanceOf(RocksDBStateBackendFactory.class);
        StateBackend backend = found.createFromConfig(new Configuration());
        assertThat(backend).isInstanceOf(EmbeddedRocksDBStateBackend.class);
        assertThat(backend.getName()).isEqualTo("rocksdb");
    }

    @Test
    void workingDirectoryGoesToTheTaskLocalDirectoryUnlessConfigured() throws Exception {
        try (KeyedStateBackend<Integer> backend = new EmbeddedRocksDBStateBackend().createKeyedStateBackend(
                parameters(new Configuration()))) {
            Path dir = ((RocksDBKeyedStateBackend<Integer>) backend).workingDirectory();
            assertThat(dir.getParent()).isEqualTo(tmp.resolve("task-local").toAbsolutePath());
            assertThat(dir.getFileName().toString()).startsWith("rocksdb-op-1-");
        }
        Path configured = Files.createDirectories(tmp.resolve("configured"));
        Configuration conf = new Configuration().set(RocksDBOptions.LOCAL_DIRECTORIES, configured.toString());
        try (KeyedStateBackend<Integer> backend = new RocksDBStateBackendFactory().createFromConfig(conf)
                .createKeyedStateBackend(parameters(new Configuration()))) {
            assertThat(((RocksDBKeyedStateBackend<Integer>) backend).workingDirectory().getParent())
                    .isEqualTo(configured.toAbsolutePath());
        }
    }

    @Test
    void optionsSetOnTheBackendWinOverTheTaskConfiguration() throws Exception {
        Path fromTask = Files.createDirectories(tmp.resolve("from-task"));
        Path fromCode = Files.createDirectories(tmp.resolve("from-code"));
        Configuration taskConf = new Configuration().set(RocksDBOptions.LOCAL_DIRECTORIES, fromTask.toString());
        try (KeyedStateBackend<Integer> backend = new EmbeddedRocksDBStateBackend()
                .setDbStoragePath(fromCode.toString()).createKeyedStateBackend(parameters(taskConf))) {
            assertThat(((RocksDBKeyedStateBackend<Integer>) backend).workingDirectory().getParent())
                    .isEqualTo(fromCode.toAbsolutePath());
        }
    }

    @Test
    void invalidOptionsFailNamingTheOption() {
        Configuration badRatio = new Configuration().setString(RocksDBOptions.WRITE_BUFFER_RATIO.key(), "1.5");
        assertThatThrownBy(() -> new EmbeddedRocksDBStateBackend().createKeyedStateBackend(parameters(badRatio)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("state.backend.rocksdb.memory.write-buffer-ratio");
        Configuration badSize = new Configuration().setString(RocksDBOptions.MANAGED_MEMORY_SIZE.key(), "lots");
        assertThatThrownBy(() -> new EmbeddedRocksDBStateBackend().createKeyedStateBackend(parameters(badSize)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("state.backend.rocksdb.memory.managed-size");
        Configuration badCache = new Configuration().set(RocksDBOptions.TIMER_CACHE_SIZE, 0);
        assertThatThrownBy(() -> new EmbeddedRocksDBStateBackend().createKeyedStateBackend(parameters(badCache)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("state.backend.rocksdb.timer-service.cache-size");
    }
}
