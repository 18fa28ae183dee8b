package dev.runnel.runtime.state.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.contrib.streaming.state.RocksDBOptions;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.internal.InternalListState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What is specific to the RocksDB store: layout-visible order, directories, native resources, errors. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RocksDBKeyedStateBackendTest {

    @TempDir
    Path tmp;

    @Test
    void mapIteratesInSerializedKeyOrderAndSupportsRemoveThroughTheIterator() throws Exception {
        try (RocksDBKeyedStateBackend<String> backend = RocksDBTestBackends.create(tmp, StringSerializer.INSTANCE)) {
            MapState<Integer, String> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new MapStateDescriptor<>("m", IntSerializer.INSTANCE, StringSerializer.INSTANCE));
            backend.setCurrentKey("a");
            // More than one iterator batch, inserted out of order.
            List<Integer> expected = new ArrayList<>();
            for (int i = 299; i >= 0; i--) {
                map.put(i * 7, i % 5 == 0 ? null : "v" + i);
            }
            for (int i = 0; i < 300; i++) {
                expected.add(i * 7);
            }
            backend.setCurrentKey("b");
            map.put(-1, "other key");

            backend.setCurrentKey("a");
            List<Integer> keys = new ArrayList<>();
            map.keys().forEach(keys::add);
            assertThat(keys).isEqualTo(expected); // non-negative big-endian ints sort numerically
            assertThat(map.contains(0)).isTrue();
            assertThat(map.get(0)).isNull();
            assertThat(map.get(7)).isEqualTo("v1");

            for (Iterator<Map.Entry<Integer, String>> it = map.iterator(); it.hasNext(); ) {
                Map.Entry<Integer, String> entry = it.next();
                if (entry.getKey() % 2 == 0) {
                    it.remove();
                } else if (entry.getValue() != null) {
                    entry.setValue(entry.getValue() + "!");
                }
            }
            assertThat(map.contains(14)).isFalse();
            assertThat(map.get(7)).isEqualTo("v1!");
            int count = 0;
            for (Integer ignored : map.keys()) {
                count++;
            }
            assertThat(count).isEqualTo(150);

            map.clear();
            assertThat(map.isEmpty()).isTrue();
            backend.setCurrentKey("b");
            assertThat(map.isEmpty()).isFalse();
            assertThat(map.get(-1)).isEqualTo("other key");
        }
    }

    @Test
    void valueAndListStatesKeepKeysAndNamespacesApart() throws Exception {
        try (RocksDBKeyedStateBackend<Long> backend = RocksDBTestBackends.create(tmp, LongSerializer.INSTANCE)) {
            ValueState<String> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("v", StringSerializer.INSTANCE));
            ListState<String> list = backend.getOrCreateKeyedState(StringSerializer.INSTANCE,
                    new ListStateDescriptor<>("l", StringSerializer.INSTANCE));
            @SuppressWarnings("unchecked")
            InternalListState<Long, String, String> internalList = (InternalListState<Long, String, String>) list;
            for (long key = 0; key < 100; key++) {
                backend.setCurrentKey(key);
                value.update("value-" + key);
                internalList.setCurrentNamespace("w1");
                list.add("a" + key);
                list.addAll(List.of("b" + key, "c" + key));
                internalList.setCurrentNamespace("w2");
                list.add("z");
            }
            backend.setCurrentKey(42L);
            assertThat(value.value()).isEqualTo("value-42");
            internalList.setCurrentNamespace("w1");
            assertThat(list.get()).containsExactly("a42", "b42", "c42");
            internalList.mergeNamespaces("w1", List.of("w2"));
            assertThat(list.get()).containsExactly("a42", "b42", "c42", "z");
            internalList.setCurrentNamespace("w2");
            assertThat(list.get()).isEmpty();
            assertThat(internalList.getInternal()).isNull();

            value.update(null);
            assertThat(value.value()).isNull();
            backend.setCurrentKey(43L);
            assertThat(value.value()).isEqualTo("value-43");

            assertThat(backend.getKeys("v", dev.runnel.runtime.state.VoidNamespace.INSTANCE).count()).isEqualTo(99);
            assertThat(backend.getKeys("l", "w2").count()).isEqualTo(99);
        }
    }

    @Test
    void workingDirectoryThatCannotBeCreatedFailsWithThePath() throws Exception {
        Path file = Files.writeString(tmp.resolve("not-a-directory"), "x");
        Configuration conf = new Configuration().set(RocksDBOptions.LOCAL_DIRECTORIES, file.toString());
        assertThatThrownBy(() -> RocksDBTestBackends.create(tmp, StringSerializer.INSTANCE, conf))
                .isInstanceOf(IOException.class)
                .hasMessageContaining(file.toAbsolutePath().toString() + "/rocksdb-op-1-0-")
                .hasMessageContaining("state.backend.rocksdb.localdir");
    }

    @Test
    void workingDirectoryNameIsSanitizedAndLivesUnderTheConfiguredBase() throws Exception {
        Path base = tmp.resolve("base");
        EmbeddedRocksDBStateBackend rocks = new EmbeddedRocksDBStateBackend().setDbStoragePath(base.toString());
        try (RocksDBKeyedStateBackend<String> backend = (RocksDBKeyedStateBackend<String>) rocks.createKeyedStateBackend(
                new dev.runnel.runtime.state.KeyedStateBackendParameters<>("../../evil/op id", "op", 3,
                        StringSerializer.INSTANCE, 128, KeyGroupRange.of(0, 127), List.of(),
                        new dev.runnel.api.common.serialization.SerializerConfig(), null, List.of(), null))) {
            Path dir = backend.workingDirectory();
            assertThat(dir.getParent()).isEqualTo(base.toAbsolutePath());
            assertThat(dir.getFileName().toString()).matches("rocksdb-______evil_op_id-3-[0-9a-f]{8}");
            assertThat(Files.isDirectory(dir)).isTrue();
        }
    }

    @Test
    void closeFreesNativeHandlesAndDeletesTheWorkingDirectory() throws Exception {
        RocksDBKeyedStateBackend<String> backend = RocksDBTestBackends.create(tmp, StringSerializer.INSTANCE);
        ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
        backend.setCurrentKey("k");
        state.update(1L);
        // An iterator left open must not keep native memory alive past close.
        java.util.stream.Stream<String> keys = backend.getKeys("count", dev.runnel.runtime.state.VoidNamespace.INSTANCE);
        Path dir = backend.workingDirectory();
        assertThat(Files.exists(dir.resolve("CURRENT"))).isTrue();
        org.rocksdb.ColumnFamilyHandle handle = ((AbstractRocksDBState<?, ?, ?>) state).columnFamily;

        backend.close();

        assertThat(Files.exists(dir)).isFalse();
        assertThat(handle.isOwningHandle()).isFalse();
        assertThat(backend.instance().isClosed()).isTrue();
        backend.close(); // harmless
        assertThatThrownBy(() -> backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>("x", LongSerializer.INSTANCE)))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
        keys.close();
    }

    @Test
    void sharedMemoryIsReleasedWhenTheLastBackendCloses() throws Exception {
        Configuration conf = new Configuration().setString(RocksDBOptions.MANAGED_MEMORY_SIZE.key(), "17mb");
        int before = RocksDBSharedMemory.livePairs();
        RocksDBKeyedStateBackend<String> first = RocksDBTestBackends.create(tmp, StringSerializer.INSTANCE, conf);
        RocksDBKeyedStateBackend<String> second = RocksDBTestBackends.create(tmp, StringSerializer.INSTANCE, conf);
        assertThat(RocksDBSharedMemory.livePairs()).isEqualTo(before + 1);
        first.close();
        assertThat(RocksDBSharedMemory.livePairs()).isEqualTo(before + 1);
        second.close();
        assertThat(RocksDBSharedMemory.livePairs()).isEqualTo(before);
    }

    @Test
    void rocksDBErrorsSurfaceRocksDBsStatusMessageAndTheState() throws Exception {
        // Without the value cache, so the write reaches RocksDB at once.
        Configuration conf = new Configuration().set(RocksDBOptions.VALUE_CACHE_SIZE, 0);
        try (RocksDBKeyedStateBackend<String> backend = RocksDBTestBackends.create(tmp, StringSerializer.INSTANCE, conf)) {
            ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
            MapState<Integer, String> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new MapStateDescriptor<>("m", IntSerializer.INSTANCE, StringSerializer.INSTANCE));
            backend.setCurrentKey("k");
            // Dropping the column families under the states makes RocksDB reject the next writes.
            backend.instance().db().dropColumnFamily(((AbstractRocksDBState<?, ?, ?>) state).columnFamily);
            backend.instance().db().dropColumnFamily(((AbstractRocksDBState<?, ?, ?>) map).columnFamily);
            assertThatThrownBy(() -> state.update(5L))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("RocksDB failed to write state 'count'")
                    .hasMessageContaining("Invalid column family")
                    .hasMessageContaining("InvalidArgument")
                    .hasCauseInstanceOf(org.rocksdb.RocksDBException.class);
            assertThatThrownBy(() -> map.put(1, "x"))
                    .isInstanceOf(IOException.class)
                    .hasMessageContaining("RocksDB failed to write state 'm'")
                    .hasMessageContaining("Invalid column family");
        }
    }

    @Test
    void keysOutsideTheKeyGroupRangeAreRejected() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = (RocksDBKeyedStateBackend<Integer>)
                new EmbeddedRocksDBStateBackend().createKeyedStateBackend(RocksDBTestBackends.parameters(
                        tmp, IntSerializer.INSTANCE, 128, KeyGroupRange.of(0, 63), List.of(), new Configuration()))) {
            int outside = 0;
            while (dev.runnel.runtime.state.KeyGroupRangeAssignment.assignToKeyGroup(outside, 128) < 64) {
                outside++;
            }
            int key = outside;
            assertThatThrownBy(() -> backend.setCurrentKey(key))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("keyBy");
        }
    }
}
