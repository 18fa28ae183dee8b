package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.KeyGroupsStateHandle;
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
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.hashmap.HashMapStateBackend;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.internal.InternalKvState;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import dev.runnel.runtime.timers.TimerSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** RocksDB snapshots restored into RocksDB at other parallelisms, for every kind of state and timers. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RocksDBSnapshotRestoreTest {

    private static final int KEY_GROUPS = 128;
    private static final int KEYS = 500;

    @TempDir
    Path tmp;

    private final ValueStateDescriptor<Long> valueDescriptor = new ValueStateDescriptor<>("value", LongSerializer.INSTANCE);
    private final ListStateDescriptor<String> listDescriptor = new ListStateDescriptor<>("list", StringSerializer.INSTANCE);
    private final MapStateDescriptor<String, Integer> mapDescriptor =
            new MapStateDescriptor<>("map", StringSerializer.INSTANCE, IntSerializer.INSTANCE);
    private final ReducingStateDescriptor<Long> sumDescriptor =
            new ReducingStateDescriptor<>("sum", Long::sum, LongSerializer.INSTANCE);

    private RocksDBKeyedStateBackend<Integer> backend(KeyGroupRange range, Collection<KeyedStateHandle> restore)
            throws Exception {
        return (RocksDBKeyedStateBackend<Integer>) new EmbeddedRocksDBStateBackend().createKeyedStateBackend(
                RocksDBTestBackends.parameters(tmp, IntSerializer.INSTANCE, KEY_GROUPS, range, restore, new Configuration()));
    }

    private KeyedStateBackend<Integer> heapBackend(KeyGroupRange range, Collection<KeyedStateHandle> restore)
            throws Exception {
        return new HashMapStateBackend().createKeyedStateBackend(
                RocksDBTestBackends.parameters(tmp, IntSerializer.INSTANCE, KEY_GROUPS, range, restore, new Configuration()));
    }

    private KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<Integer, VoidNamespace>> timers(
            KeyedStateBackend<Integer> backend) {
        return backend.create("_timer_event_test", new TimerSerializer<>(IntSerializer.INSTANCE, VoidNamespaceSerializer.INSTANCE),
                TimerHeapInternalTimer::compareByTimestamp, TimerHeapInternalTimer::getKey);
    }

    private static KeyGroupsStateHandle snapshot(KeyedStateBackend<?> backend, KeyGroupRange range)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KeyGroupRangeOffsets offsets = backend.snapshot(range, out);
        return KeyGroupsStateHandle.inMemory("test snapshot " + range, out.toByteArray(), offsets);
    }

    private void fill(KeyedStateBackend<Integer> backend) throws Exception {
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, valueDescriptor);
        ListState<String> list = backend.getOrCreateKeyedState(StringSerializer.INSTANCE, listDescriptor);
        MapState<String, Integer> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, mapDescriptor);
        ReducingState<Long> sum = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sumDescriptor);
        var queue = timers(backend);
        for (int key = 0; key < KEYS; key++) {
            backend.setCurrentKey(key);
            value.update((long) key * 10);
            setNamespace(list, "w" + (key % 3));
            list.addAll(List.of("a" + key, "b" + key));
            for (int i = 0; i < key % 4; i++) {
                map.put("k" + i, i == 2 ? null : key + i);
            }
            sum.add((long) key);
            sum.add(1L);
            queue.add(new TimerHeapInternalTimer<>(1000L - key, key, VoidNamespace.INSTANCE));
        }
    }

    @SuppressWarnings("unchecked")
    private static <N> void setNamespace(Object state, N namespace) {
        ((InternalKvState<?, N, ?>) state).setCurrentNamespace(namespace);
    }

    private void verify(KeyedStateBackend<Integer> backend, KeyGroupRange restoredRange) throws Exception {
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, valueDescriptor);
        ListState<String> list = backend.getOrCreateKeyedState(StringSerializer.INSTANCE, listDescriptor);
        MapState<String, Integer> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, mapDescriptor);
        ReducingState<Long> sum = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sumDescriptor);
        var queue = timers(backend);
        List<Long> expectedTimers = new ArrayList<>();
        int seen = 0;
        for (int key = 0; key < KEYS; key++) {
            int keyGroup = KeyGroupRangeAssignment.assignToKeyGroup(key, KEY_GROUPS);
            if (!backend.getKeyGroupRange().contains(keyGroup)) {
                continue;
            }
            backend.setCurrentKey(key);
            if (!restoredRange.contains(keyGroup)) {
                assertThat(value.value()).as("key %s outside the restored key groups", key).isNull();
                continue;
            }
            seen++;
            expectedTimers.add(1000L - key);
            assertThat(value.value()).isEqualTo(key * 10L);
            setNamespace(list, "w" + (key % 3));
            assertThat(list.get()).containsExactly("a" + key, "b" + key);
            setNamespace(list, "w" + ((key + 1) % 3));
            assertThat(list.get()).isEmpty();
            Map<String, Integer> expectedMap = new TreeMap<>();
            for (int i = 0; i < key % 4; i++) {
                expectedMap.put("k" + i, i == 2 ? null : key + i);
            }
            Map<String, Integer> actualMap = new TreeMap<>();
            map.entries().forEach(e -> actualMap.put(e.getKey(), e.getValue()));
            assertThat(actualMap).isEqualTo(expectedMap);
            assertThat(map.contains("k2")).isEqualTo(key % 4 == 3);
            assertThat(sum.get()).isEqualTo(key + 1L);
        }
        assertThat(seen).isPositive();
        expectedTimers.sort(null);
        assertThat(queue.size()).isEqualTo(expectedTimers.size());
        List<Long> polled = new ArrayList<>();
        TimerHeapInternalTimer<Integer, VoidNamespace> timer;
        while ((timer = queue.poll()) != null) {
            polled.add(timer.getTimestamp());
            assertThat(timer.getTimestamp()).isEqualTo(1000L - timer.getKey());
        }
        assertThat(polled).isEqualTo(expectedTimers);
    }

    @Test
    void restoresIntoTwoSubtasksAfterScalingOut() throws Exception {
        KeyGroupsStateHandle handle;
        try (RocksDBKeyedStateBackend<Integer> source = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(source);
            handle = snapshot(source, KeyGroupRange.of(0, 127));
        }
        try (RocksDBKeyedStateBackend<Integer> left = backend(KeyGroupRange.of(0, 63), List.of(handle));
                RocksDBKeyedStateBackend<Integer> right = backend(KeyGroupRange.of(64, 127), List.of(handle))) {
            verify(left, KeyGroupRange.of(0, 127));
            verify(right, KeyGroupRange.of(0, 127));
        }
    }

    @Test
    void restoresFromSeveralSnapshotsAfterScalingIn() throws Exception {
        List<KeyedStateHandle> handles = new ArrayList<>();
        for (KeyGroupRange range : List.of(KeyGroupRange.of(0, 42), KeyGroupRange.of(43, 85), KeyGroupRange.of(86, 127))) {
            try (RocksDBKeyedStateBackend<Integer> source = backend(range, List.of())) {
                ValueState<Long> unused = source.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, valueDescriptor);
                fillKeysOf(source);
                handles.add(snapshot(source, range));
            }
        }
        try (RocksDBKeyedStateBackend<Integer> all = backend(KeyGroupRange.of(0, 127), handles)) {
            verify(all, KeyGroupRange.of(0, 127));
        }
    }

    /** {@link #fill} for the keys this backend owns. */
    private void fillKeysOf(RocksDBKeyedStateBackend<Integer> backend) throws Exception {
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, valueDescriptor);
        ListState<String> list = backend.getOrCreateKeyedState(StringSerializer.INSTANCE, listDescriptor);
        MapState<String, Integer> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, mapDescriptor);
        ReducingState<Long> sum = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sumDescriptor);
        var queue = timers(backend);
        for (int key = 0; key < KEYS; key++) {
            if (!backend.getKeyGroupRange().contains(KeyGroupRangeAssignment.assignToKeyGroup(key, KEY_GROUPS))) {
                continue;
            }
            backend.setCurrentKey(key);
            value.update((long) key * 10);
            setNamespace(list, "w" + (key % 3));
            list.add("a" + key);
            list.add("b" + key);
            for (int i = 0; i < key % 4; i++) {
                map.put("k" + i, i == 2 ? null : key + i);
            }
            sum.add((long) key);
            sum.add(1L);
            queue.add(new TimerHeapInternalTimer<>(1000L - key, key, VoidNamespace.INSTANCE));
        }
    }

    @Test
    void heapSnapshotsRestoreIntoRocksDBAndRocksDBSnapshotsIntoTheHeapStore() throws Exception {
        KeyGroupsStateHandle fromHeap;
        try (KeyedStateBackend<Integer> heap = heapBackend(KeyGroupRange.of(0, 127), List.of())) {
            fill(heap);
            fromHeap = snapshot(heap, KeyGroupRange.of(0, 127));
        }
        KeyGroupsStateHandle fromRocks;
        try (RocksDBKeyedStateBackend<Integer> left = backend(KeyGroupRange.of(0, 63), List.of(fromHeap));
                RocksDBKeyedStateBackend<Integer> right = backend(KeyGroupRange.of(64, 127), List.of(fromHeap))) {
            // Snapshot before registering anything: the restored bytes pass through unchanged.
            fromRocks = snapshot(right, KeyGroupRange.of(64, 127));
            verify(left, KeyGroupRange.of(0, 127));
        }
        try (KeyedStateBackend<Integer> heap = heapBackend(KeyGroupRange.of(64, 127), List.of(fromRocks))) {
            verify(heap, KeyGroupRange.of(64, 127));
        }
    }

    @Test
    void snapshotOfSomeKeyGroupsRestoresOnlyThose() throws Exception {
        KeyGroupRange some = KeyGroupRange.of(10, 40);
        KeyGroupsStateHandle handle;
        try (RocksDBKeyedStateBackend<Integer> source = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(source);
            handle = snapshot(source, some);
        }
        try (RocksDBKeyedStateBackend<Integer> target = backend(KeyGroupRange.of(0, 127), List.of(handle))) {
            verify(target, some);
        }
    }

    @Test
    void stateRestoredButNotRegisteredIsKeptInTheNextSnapshot() throws Exception {
        KeyGroupsStateHandle first;
        try (RocksDBKeyedStateBackend<Integer> source = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(source);
            first = snapshot(source, KeyGroupRange.of(0, 127));
        }
        KeyGroupsStateHandle second;
        try (RocksDBKeyedStateBackend<Integer> middle = backend(KeyGroupRange.of(0, 127), List.of(first))) {
            // Registers nothing: every state is carried as raw bytes.
            second = snapshot(middle, KeyGroupRange.of(0, 127));
        }
        try (RocksDBKeyedStateBackend<Integer> last = backend(KeyGroupRange.of(0, 127), List.of(second))) {
            verify(last, KeyGroupRange.of(0, 127));
        }
    }

    @Test
    void registeringARestoredStateWithAnotherSerializerFailsNamingTheState() throws Exception {
        KeyGroupsStateHandle handle;
        try (RocksDBKeyedStateBackend<Integer> source = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(source);
            handle = snapshot(source, KeyGroupRange.of(0, 127));
        }
        try (RocksDBKeyedStateBackend<Integer> target = backend(KeyGroupRange.of(0, 127), List.of(handle))) {
            assertThatThrownBy(() -> target.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("value", StringSerializer.INSTANCE)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'value'")
                    .hasMessageContaining("StringSerializer");
            assertThatThrownBy(() -> target.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("list", StringSerializer.INSTANCE)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'list'");
        }
    }

    @Test
    void corruptSnapshotFailsRestoreNamingStateAndKeyGroupAndLeavesNothingBehind() throws Exception {
        KeyGroupsStateHandle handle;
        try (RocksDBKeyedStateBackend<Integer> source = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(source);
            handle = snapshot(source, KeyGroupRange.of(0, 127));
        }
        byte[] data = ((ByteStreamStateHandle) handle.getDelegateStateHandle()).getData().clone();
        // The last byte belongs to the last section of key group 127: flip it so its CRC fails.
        data[data.length - 1] ^= 0x5A;
        KeyGroupsStateHandle corrupt = KeyGroupsStateHandle.inMemory("corrupt", data, handle.getKeyGroupRangeOffsets());
        Path local = tmp.resolve("local");
        assertThatThrownBy(() -> backend(KeyGroupRange.of(0, 127), List.of(corrupt)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("key group 127")
                .hasMessageContaining("state '");
        try (var dirs = java.nio.file.Files.list(local)) {
            assertThat(dirs.filter(p -> p.getFileName().toString().startsWith("rocksdb-"))).isEmpty();
        }

        byte[] truncated = java.util.Arrays.copyOf(((ByteStreamStateHandle) handle.getDelegateStateHandle()).getData(), ((ByteStreamStateHandle) handle.getDelegateStateHandle()).getData().length - 10);
        KeyGroupsStateHandle cut = KeyGroupsStateHandle.inMemory("truncated", truncated, handle.getKeyGroupRangeOffsets());
        assertThatThrownBy(() -> backend(KeyGroupRange.of(0, 127), List.of(cut)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("truncated");
    }
}
