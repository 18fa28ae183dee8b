package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The heap store's copy-on-write from below: an entry array shared with a snapshot never changes, a
 * pinned version makes each entry be copied once and only once, and a released snapshot, from any
 * thread, stops the copying, so the write path allocates nothing again.
 */
@Timeout(120)
class HeapCopyOnWriteTest {

    /** A key with a poor hash code, so that entries share probe runs and removals shift them. */
    private record Key(int id) {
        @Override
        public int hashCode() {
            return id % 13;
        }
    }

    @Test
    void anArrayGivenToASnapshotNeverChanges() {
        sharedArrayStaysAsItWas(new StateMap<>(false));
        sharedArrayStaysAsItWas(new StateMap<>(true));
    }

    private static void sharedArrayStaysAsItWas(StateMap<Key, Integer, String> map) {
        for (int i = 0; i < 500; i++) {
            map.insert(new Key(i), 0, StateMap.hash(i % 13, 0), "v" + i);
        }
        StateMap.Entry<Key, Integer, String>[] shared = map.share();
        Object[] asShared = shared.clone();
        // removals shift entries, inserts fill holes and resize, replace swaps an entry
        for (int i = 0; i < 500; i += 3) {
            map.remove(new Key(i), 0, StateMap.hash(i % 13, 0));
        }
        StateMap.Entry<Key, Integer, String> kept = map.get(new Key(1), 0, StateMap.hash(1, 0));
        map.replace(kept, new StateMap.Entry<>(kept.key, kept.namespace, "copy"), StateMap.hash(1, 0));
        for (int i = 500; i < 2_000; i++) {
            map.insert(new Key(i), 0, StateMap.hash(i % 13, 0), "v" + i);
        }
        assertThat(Arrays.equals(shared, asShared)).as("the shared array holds the same entries").isTrue();
        assertThat(map.get(new Key(1), 0, StateMap.hash(1, 0)).state).isEqualTo("copy");
        assertThat(map.get(new Key(3), 0, StateMap.hash(3, 0))).isNull();
        assertThat(map.size()).isEqualTo(2_000 - 167);
    }

    @Test
    void aReleaseOnAnyThreadTakesEffectAtTheNextCheck() throws Exception {
        SnapshotVersions versions = new SnapshotVersions();
        assertThat(versions.highestPinned).isZero();
        SnapshotVersions.Pin first = versions.pin();
        int entryOfFirst = versions.current();
        SnapshotVersions.Pin second = versions.pin();
        assertThat(versions.mustCopy(0)).isTrue();
        assertThat(versions.mustCopy(entryOfFirst)).as("changed after the first snapshot, before the second").isTrue();
        CompletableFuture.runAsync(second::release).get();
        assertThat(versions.mustCopy(entryOfFirst)).as("only the first snapshot is left").isFalse();
        assertThat(versions.mustCopy(0)).isTrue();
        CompletableFuture.runAsync(first::release).get();
        assertThat(versions.mustCopy(0)).isFalse();
        assertThat(versions.highestPinned).isZero();
        assertThat(versions.pinnedCount()).isZero();
    }

    @Test
    void aPendingSnapshotCopiesEachEntryOnceAndAReleasedOneNone() throws Exception {
        // String values live in entries (Long values would take the entry-less layout, tested below)
        HeapKeyedStateBackend<Integer> backend = backend();
        ValueState<String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>("name", StringSerializer.INSTANCE));
        String[] values = new String[KEY_COUNT];
        Arrays.setAll(values, i -> "v" + i); // preallocated: updates allocate nothing of their own
        Passes passes = updatePasses(backend, state, values);

        long entryBytes = 32; // an entry is 32 bytes with compressed references (values held by reference)
        assertThat(passes.unpinned).as("no snapshot: updates in place").isLessThan(64 * 1024);
        // each entry copied (32 bytes) and each key group's entry array once (~10 bytes a key here); with the
        // 8 bytes of primitive bits in every entry it was 50 bytes a key
        assertThat(passes.firstPass).as("the first update of each entry copies it").isGreaterThan(KEY_COUNT * entryBytes)
                .isLessThan(KEY_COUNT * 46L);
        assertThat(passes.secondPass).as("a copy is not copied again").isLessThan(64 * 1024);
        assertThat(passes.released).as("after the release nothing is copied").isLessThan(64 * 1024);
        assertThat(backend.numEntries("name")).isEqualTo(KEY_COUNT);
    }

    @Test
    void aPendingSnapshotCopiesEachKeyGroupOfPrimitiveValuesOnceAndAReleasedOneNone() throws Exception {
        HeapKeyedStateBackend<Integer> backend = backend();
        ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
        Long[] values = new Long[KEY_COUNT];
        Arrays.setAll(values, i -> 2_000_000L + i); // preallocated: updates box nothing
        Passes passes = updatePasses(backend, state, values);

        // 128 key groups of ~156 keys (256 or 512 positions): each copies its slots (hash, inline form and value,
        // 24 bytes a position) and its keys (4 bytes a position) once
        long positionBytes = 28;
        assertThat(passes.unpinned).as("no snapshot: values written in place").isLessThan(64 * 1024);
        assertThat(passes.firstPass).as("the first write to each key group copies its arrays")
                .isGreaterThan(128 * 256 * positionBytes).isLessThan(128 * 512 * positionBytes + 64 * 1024);
        assertThat(passes.secondPass).as("a copy is not copied again").isLessThan(64 * 1024);
        assertThat(passes.released).as("after the release nothing is copied").isLessThan(64 * 1024);
        assertThat(backend.numEntries("count")).isEqualTo(KEY_COUNT);
    }

    private static final int KEY_COUNT = 20_000;

    private record Passes(long unpinned, long firstPass, long secondPass, long released) {}

    private static HeapKeyedStateBackend<Integer> backend() throws IOException {
        return new HeapKeyedStateBackend<>(new KeyedStateBackendParameters<>("op", "cow", 0, IntSerializer.INSTANCE,
                128, KeyGroupRange.of(0, 127), List.of(), new SerializerConfig(), null, List.of(), null));
    }

    /**
     * The bytes allocated by passes that update every key: without a snapshot, the two passes while one is
     * pending, and after its release (from another thread); the released snapshot can no longer be written.
     */
    private static <V> Passes updatePasses(HeapKeyedStateBackend<Integer> backend, ValueState<V> state, V[] values)
            throws Exception {
        Integer[] keys = new Integer[values.length];
        Arrays.setAll(keys, i -> 1_000_000 + i);
        for (int round = 0; round < 50; round++) {
            updateAll(backend, state, keys, values); // entries exist, the path is compiled
        }
        long unpinned = allocatedBy(() -> updateAll(backend, state, keys, values));
        KeyedStateSnapshot snapshot = backend.snapshotSync(KeyGroupRange.of(0, 127));
        long firstPass = allocatedBy(() -> updateAll(backend, state, keys, values));
        long secondPass = allocatedBy(() -> updateAll(backend, state, keys, values));
        CompletableFuture.runAsync(snapshot::release).get();
        long released = allocatedBy(() -> updateAll(backend, state, keys, values));
        assertThat(backend.pendingSnapshotCount()).isZero();
        assertThatThrownBy(() -> snapshot.writeTo(new ByteArrayOutputStream()))
                .isInstanceOf(IOException.class).hasMessageContaining("released");
        return new Passes(unpinned, firstPass, secondPass, released);
    }

    private static <V> void updateAll(HeapKeyedStateBackend<Integer> backend, ValueState<V> state, Integer[] keys,
            V[] values) {
        try {
            for (int i = 0; i < keys.length; i++) {
                backend.setCurrentKey(keys[i]);
                state.update(values[i]);
            }
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static long allocatedBy(Runnable work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        work.run();
        return threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
    }
}
