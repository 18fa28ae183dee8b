package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.KeyGroupsStateHandle;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.RocksDBOptions;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import java.io.ByteArrayOutputStream;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyHandle;

/** The write-back cache of single-value states: what reaches RocksDB, and when. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RocksDBValueCacheTest {

    @TempDir
    Path tmp;

    private RocksDBKeyedStateBackend<Integer> backend(int cacheEntries) throws Exception {
        return RocksDBTestBackends.create(tmp, IntSerializer.INSTANCE,
                new Configuration().set(RocksDBOptions.VALUE_CACHE_SIZE, cacheEntries));
    }

    private static byte[] rocksKey(RocksDBKeyedStateBackend<Integer> backend, int key) throws Exception {
        backend.setCurrentKey(key);
        int length = backend.keyBuilder().buildNamespaceKey(VoidNamespace.INSTANCE, VoidNamespaceSerializer.INSTANCE);
        return java.util.Arrays.copyOf(backend.keyBuilder().buffer(), length);
    }

    private static ColumnFamilyHandle columnFamily(ValueState<?> state) {
        return ((AbstractRocksDBState<?, ?, ?>) state).columnFamily;
    }

    @Test
    void writesStayInTheCacheUntilAKeyListingFlushesThemAndSnapshotsSeeThemThere() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = backend(1024)) {
            ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
            backend.setCurrentKey(1);
            state.update(41L);
            state.update(state.value() + 1);
            assertThat(state.value()).isEqualTo(42L);
            byte[] key = rocksKey(backend, 1);
            assertThat(backend.instance().db().get(columnFamily(state), key)).as("not written back yet").isNull();
            assertThat(backend.valueCache().dirtyCount()).isEqualTo(1);

            // a snapshot copies the dirty entry instead of writing it back
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            KeyGroupRangeOffsets offsets = backend.snapshot(backend.getKeyGroupRange(), bytes);
            assertThat(backend.instance().db().get(columnFamily(state), key)).as("still not written back").isNull();
            assertThat(backend.valueCache().dirtyCount()).isEqualTo(1);
            try (RocksDBKeyedStateBackend<Integer> restored = RocksDBTestBackends.create(tmp, IntSerializer.INSTANCE,
                    List.of(KeyGroupsStateHandle.inMemory("cached", bytes.toByteArray(), offsets)))) {
                ValueState<Long> restoredState = restored.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                        new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
                restored.setCurrentKey(1);
                assertThat(restoredState.value()).isEqualTo(42L);
            }

            assertThat(backend.getKeys("count", VoidNamespace.INSTANCE)).containsExactly(1);
            assertThat(backend.instance().db().get(columnFamily(state), key)).hasSize(8);
            assertThat(backend.valueCache().dirtyCount()).isZero();
            // Deletes are written back as deletes.
            backend.setCurrentKey(1);
            state.clear();
            assertThat(state.value()).isNull();
            assertThat(backend.instance().db().get(columnFamily(state), key)).isNotNull();
            assertThat(backend.getKeys("count", VoidNamespace.INSTANCE).count()).isZero();
            assertThat(backend.instance().db().get(columnFamily(state), key)).isNull();
        }
    }

    @Test
    void evictionWritesDirtyEntriesBackAndReadsThemAgain() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = backend(RocksDBValueCache.WAYS)) {
            ValueState<Long> first = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("a", LongSerializer.INSTANCE));
            ValueState<Long> second = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("b", LongSerializer.INSTANCE));
            assertThat(backend.valueCache().capacity()).isEqualTo(RocksDBValueCache.WAYS);
            for (int round = 0; round < 3; round++) {
                for (int key = 0; key < 200; key++) {
                    backend.setCurrentKey(key);
                    Long a = first.value();
                    first.update(a == null ? key : a + 1000);
                    Long b = second.value();
                    second.update(b == null ? -key : b - 1);
                    if (key % 7 == 0) {
                        first.update(null);
                    }
                }
            }
            for (int key = 0; key < 200; key++) {
                backend.setCurrentKey(key);
                assertThat(first.value()).isEqualTo(key % 7 == 0 ? null : key + 2000L);
                assertThat(second.value()).isEqualTo(-key - 2L);
            }
            // Most entries were evicted, so most values are in RocksDB already.
            int inRocksDB = 0;
            for (int key = 0; key < 200; key++) {
                if (backend.instance().db().get(columnFamily(second), rocksKey(backend, key)) != null) {
                    inRocksDB++;
                }
            }
            assertThat(inRocksDB).isGreaterThan(180);
        }
    }

    @Test
    void largeValuesBypassTheCacheAndReplaceCachedOnes() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = backend(64)) {
            ValueState<String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("text", StringSerializer.INSTANCE));
            backend.setCurrentKey(5);
            state.update("small");
            String large = "x".repeat(RocksDBKeyedStateBackend.MAX_CACHED_VALUE_BYTES + 1);
            state.update(large);
            assertThat(backend.valueCache().dirtyCount()).isZero();
            assertThat(backend.instance().db().get(columnFamily(state), rocksKey(backend, 5))).isNotNull();
            backend.setCurrentKey(5);
            assertThat(state.value()).isEqualTo(large);
            state.update("small again");
            assertThat(state.value()).isEqualTo("small again");
        }
    }

    @Test
    void cachedValuesAreDeserializedAfreshOnEveryRead() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = backend(64)) {
            ValueState<java.util.List<Long>> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("list", new dev.runnel.api.common.typeutils.base.ListSerializer<>(
                            LongSerializer.INSTANCE)));
            backend.setCurrentKey(1);
            state.update(new java.util.ArrayList<>(java.util.List.of(1L)));
            java.util.List<Long> read = state.value();
            read.add(2L); // changed without update(): must not change the state
            assertThat(state.value()).containsExactly(1L);
        }
    }
}
