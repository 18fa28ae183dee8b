package dev.runnel.runtime.state.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReducingState;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.RocksDBOptions;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import dev.runnel.runtime.timers.TimerSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link RocksDBOptions#INPLACE_UPDATE_SUPPORT}: what {@code auto} resolves to, and that a database
 * with in-place memtable updates (snapshots through a checkpoint) writes the same bytes as one
 * without (native snapshots) for the same state, and leaves no checkpoint folder behind.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RocksDBInplaceUpdatesTest {

    private static final KeyGroupRange ALL = KeyGroupRange.of(0, 127);

    @TempDir
    Path tmp;

    // ------------------------------------------------------------------ the option

    @Test
    void autoUpdatesInPlaceUnlessTheJobCheckpoints() {
        assertThat(inPlace(new Configuration())).isTrue();
        assertThat(inPlace(interval("-1"))).isTrue();
        assertThat(inPlace(interval("0"))).isTrue();
        assertThat(inPlace(interval(""))).isTrue();
        assertThat(inPlace(interval("0 s"))).isTrue();
        assertThat(inPlace(interval("PT0S"))).isTrue();
        assertThat(inPlace(interval("10000"))).isFalse();
        assertThat(inPlace(interval("10 s"))).isFalse();
        assertThat(inPlace(interval("500ms"))).isFalse();
        assertThat(inPlace(interval("1 min"))).isFalse();
        assertThat(inPlace(interval("PT10S"))).isFalse();
        assertThat(inPlace(interval("10 s").setString(RocksDBOptions.INPLACE_UPDATE_SUPPORT.key(), "AUTO"))).isFalse();
    }

    @Test
    void trueAndFalseDecideRegardlessOfCheckpointing() {
        String key = RocksDBOptions.INPLACE_UPDATE_SUPPORT.key();
        assertThat(inPlace(interval("10 s").setString(key, "true"))).isTrue();
        assertThat(inPlace(new Configuration().setString(key, "false"))).isFalse();
        assertThat(inPlace(interval("-1").setString(key, " False "))).isFalse();
    }

    @Test
    void invalidValuesFailNamingTheOption() {
        assertThatThrownBy(() -> inPlace(new Configuration().setString(
                RocksDBOptions.INPLACE_UPDATE_SUPPORT.key(), "sometimes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RocksDBOptions.INPLACE_UPDATE_SUPPORT.key())
                .hasMessageContaining("sometimes");
        assertThatThrownBy(() -> inPlace(interval("often")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RocksDBOptions.CHECKPOINTING_INTERVAL_KEY);
        assertThatThrownBy(() -> inPlace(interval("10 fortnights")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(RocksDBOptions.CHECKPOINTING_INTERVAL_KEY);
    }

    private static boolean inPlace(Configuration configuration) {
        return RocksDBSettings.from(configuration).inplaceUpdateSupport();
    }

    private static Configuration interval(String value) {
        return new Configuration().setString(RocksDBOptions.CHECKPOINTING_INTERVAL_KEY, value);
    }

    // ------------------------------------------------------------------ the two snapshot paths

    @Test
    void bothPathsWriteTheSameBytesForTheSameState() throws Exception {
        for (int valueCache : new int[] {65536, 16, 0}) {
            byte[] checkpointed = snapshotOfFilledBackend(tmp.resolve("on-" + valueCache), true, valueCache);
            byte[] native_ = snapshotOfFilledBackend(tmp.resolve("off-" + valueCache), false, valueCache);
            assertThat(checkpointed).as("value cache %s", valueCache).isEqualTo(native_);
            assertThat(checkpointed.length).isGreaterThan(10_000);
        }
    }

    private byte[] snapshotOfFilledBackend(Path dir, boolean inPlace, int valueCache) throws Exception {
        Configuration conf = new Configuration()
                .setString(RocksDBOptions.INPLACE_UPDATE_SUPPORT.key(), Boolean.toString(inPlace))
                .setString(RocksDBOptions.VALUE_CACHE_SIZE.key(), Integer.toString(valueCache));
        try (RocksDBKeyedStateBackend<Integer> backend = RocksDBTestBackends.create(dir, IntSerializer.INSTANCE, conf)) {
            fill(backend);
            KeyedStateSnapshot snapshot = backend.snapshotSync(ALL);
            assertThat(checkpointFolders(backend)).hasSize(inPlace ? 1 : 0);
            // The task goes on after the synchronous phase: none of this may show in the snapshot.
            ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("value", LongSerializer.INSTANCE));
            ListState<String> list = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ListStateDescriptor<>("list", StringSerializer.INSTANCE));
            for (int key = 0; key < 3_000; key += 3) {
                backend.setCurrentKey(key);
                value.update(-1L);
                list.add("later");
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            snapshot.writeTo(out);
            assertThat(checkpointFolders(backend)).isEmpty();
            return out.toByteArray();
        }
    }

    /** Values (overwritten many times, so in place), lists (merges), maps, reducing state, timers. */
    private static void fill(RocksDBKeyedStateBackend<Integer> backend) throws Exception {
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>("value", LongSerializer.INSTANCE));
        ListState<String> list = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ListStateDescriptor<>("list", StringSerializer.INSTANCE));
        MapState<String, Integer> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new MapStateDescriptor<>("map", StringSerializer.INSTANCE, IntSerializer.INSTANCE));
        ReducingState<Long> sum = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ReducingStateDescriptor<>("sum", Long::sum, LongSerializer.INSTANCE));
        var timers = backend.create("_timer_event_test",
                new TimerSerializer<>(IntSerializer.INSTANCE, VoidNamespaceSerializer.INSTANCE),
                TimerHeapInternalTimer::compareByTimestamp, TimerHeapInternalTimer::getKey);
        for (int round = 0; round < 5; round++) {
            for (int key = 0; key < 3_000; key++) {
                backend.setCurrentKey(key);
                Long v = value.value();
                value.update(v == null ? 1 : v + key);
                if (round < 2) {
                    list.add("e" + round + "-" + key);
                }
                map.put("k" + (key % 5), key * round);
                if (key % 7 == round) {
                    map.remove("k" + (key % 5));
                }
                sum.add((long) round);
                if (round == 0) {
                    timers.add(new TimerHeapInternalTimer<>(10_000L - key, key, VoidNamespace.INSTANCE));
                }
            }
        }
        for (int key = 0; key < 3_000; key += 11) {
            backend.setCurrentKey(key);
            value.clear();
        }
    }

    @Test
    void releasingACheckpointSnapshotDeletesItsFolderAndClosingDeletesPendingOnes() throws Exception {
        Configuration conf = new Configuration().setString(RocksDBOptions.INPLACE_UPDATE_SUPPORT.key(), "true");
        RocksDBKeyedStateBackend<Integer> backend = RocksDBTestBackends.create(tmp, IntSerializer.INSTANCE, conf);
        Path workingDirectory = backend.workingDirectory();
        try {
            ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("value", LongSerializer.INSTANCE));
            backend.setCurrentKey(1);
            value.update(1L);
            KeyedStateSnapshot released = backend.snapshotSync(ALL);
            KeyedStateSnapshot pending = backend.snapshotSync(ALL);
            assertThat(checkpointFolders(backend)).hasSize(2);
            released.release();
            assertThat(checkpointFolders(backend)).hasSize(1);
            assertThatThrownBy(() -> released.writeTo(new ByteArrayOutputStream())).isInstanceOf(IOException.class);
            assertThat(pending).isNotNull();
        } finally {
            backend.close();
        }
        assertThat(workingDirectory).doesNotExist();
    }

    private static List<Path> checkpointFolders(RocksDBKeyedStateBackend<?> backend) throws IOException {
        try (Stream<Path> children = Files.list(backend.workingDirectory())) {
            return children.filter(p -> p.getFileName().toString().startsWith("snapshot-checkpoint-")).toList();
        }
    }
}
