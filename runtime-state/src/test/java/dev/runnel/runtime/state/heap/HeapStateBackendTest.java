package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.state.ValueState;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendTestBase;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.hashmap.HashMapStateBackend;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The shared state backend suite against the heap store, and what only the heap store's layout needs. */
class HeapStateBackendTest extends StateBackendTestBase {

    @Override
    protected StateBackend backend() {
        return new HashMapStateBackend();
    }

    /**
     * A per-key value state starts in one map for all the backend's key groups and splits it in halves once it
     * outgrows the shared capacity. A snapshot taken before the split and one taken after both restore every key
     * with its value, into backends of other ranges (rescaling), and the live backend keeps reading them all.
     */
    @Test
    @Timeout(120)
    void aValueStateThatOutgrowsItsSharedMapKeepsEveryKeyThroughSnapshotsAndRescaling() throws Exception {
        HeapKeyedStateBackend<Integer> backend = (HeapKeyedStateBackend<Integer>) createBackend();
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("value"));
        int early = 20_000;
        int all = StateMap.thresholdFor(PrimitiveStateMap.MAX_SHARED_CAPACITY) + 40_000;
        write(backend, value, 0, early);
        assertThat(backend.numMaps("value")).as("one map for every key group").isEqualTo(1);
        KeyedStateHandle beforeSplit = snapshotToMemory(backend, ALL);

        write(backend, value, early, all);
        assertThat(backend.numMaps("value")).as("split in halves").isGreaterThanOrEqualTo(2);
        assertThat(backend.numEntries("value")).isEqualTo(all);
        assertThat(backend.getKeys("value", VoidNamespace.INSTANCE).count()).isEqualTo(all);
        for (int key = 0; key < all; key++) {
            backend.setCurrentKey(key);
            assertThat(value.value()).as("key %s", key).isEqualTo(key * 3L);
        }
        KeyedStateHandle afterSplit = snapshotToFile(backend, ALL);

        assertRestoredAcrossThree(beforeSplit, early);
        assertRestoredAcrossThree(afterSplit, all);
    }

    private static void write(KeyedStateBackend<Integer> backend, ValueState<Long> value, int from, int to)
            throws Exception {
        for (int key = from; key < to; key++) {
            backend.setCurrentKey(key);
            value.update(key * 3L);
        }
    }

    /** Restores {@code handle} into three subtasks' ranges: each holds exactly the keys 0..keys-1 of its groups. */
    private void assertRestoredAcrossThree(KeyedStateHandle handle, int keys) throws Exception {
        List<Integer> counts = new ArrayList<>();
        for (int subtask = 0; subtask < 3; subtask++) {
            KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(KEY_GROUPS, 3, subtask);
            KeyedStateBackend<Integer> restored = restore(range, handle);
            ValueState<Long> value =
                    restored.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("value"));
            int count = 0;
            for (int key = 0; key < keys; key++) {
                if (range.contains(keyGroupOf(key))) {
                    restored.setCurrentKey(key);
                    assertThat(value.value()).as("key %s in subtask %s", key, subtask).isEqualTo(key * 3L);
                    count++;
                }
            }
            assertThat(restored.getKeys("value", VoidNamespace.INSTANCE).count()).isEqualTo(count);
            counts.add(count);
        }
        assertThat(counts.stream().mapToInt(Integer::intValue).sum()).isEqualTo(keys);
    }
}
