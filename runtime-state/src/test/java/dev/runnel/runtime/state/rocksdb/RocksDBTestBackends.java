package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.KeyedStateHandle;
import java.io.File;
import java.nio.file.Path;
import java.util.Collection;
import java.util.List;

/** Builds RocksDB backends for tests, in a test's temporary directory. */
final class RocksDBTestBackends {

    private RocksDBTestBackends() {}

    static <K> KeyedStateBackendParameters<K> parameters(Path dir, TypeSerializer<K> keySerializer,
            int numberOfKeyGroups, KeyGroupRange range, Collection<KeyedStateHandle> restore, Configuration conf) {
        return new KeyedStateBackendParameters<>("op-1", "Test Operator", 0, keySerializer, numberOfKeyGroups,
                range, restore, new SerializerConfig(), conf, List.of(new File(dir.toFile(), "local")), null);
    }

    static <K> RocksDBKeyedStateBackend<K> create(Path dir, TypeSerializer<K> keySerializer) throws Exception {
        return create(dir, keySerializer, new Configuration());
    }

    static <K> RocksDBKeyedStateBackend<K> create(Path dir, TypeSerializer<K> keySerializer, Configuration conf)
            throws Exception {
        return (RocksDBKeyedStateBackend<K>) new EmbeddedRocksDBStateBackend().createKeyedStateBackend(
                parameters(dir, keySerializer, 128, KeyGroupRange.of(0, 127), List.of(), conf));
    }

    /** A backend of all 128 key groups restored from {@code restore}, with the default settings. */
    static <K> RocksDBKeyedStateBackend<K> create(Path dir, TypeSerializer<K> keySerializer,
            Collection<KeyedStateHandle> restore) throws Exception {
        return (RocksDBKeyedStateBackend<K>) new EmbeddedRocksDBStateBackend().createKeyedStateBackend(
                parameters(dir, keySerializer, 128, KeyGroupRange.of(0, 127), restore, new Configuration()));
    }

    /** Small memory, so tests that open many instances stay light. */
    static RocksDBSettings smallSettings() {
        return RocksDBSettings.from(new Configuration()
                .setString("state.backend.rocksdb.memory.managed-size", "16mb")
                .setString("state.backend.rocksdb.writebuffer.size", "4mb"));
    }
}
