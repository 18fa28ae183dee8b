package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.internal.InternalValueState;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The heap store's read-ahead (KeyedStateBackend.prefetch) is only a hint: whatever keys it is given —
 * present, absent, of key groups outside the backend's range, more than a group — it changes no value,
 * no entry count and not the current key, and the lookups that follow find what they found before.
 */
@Timeout(60)
class HeapPrefetchTest {

    private static HeapKeyedStateBackend<String> backend(KeyGroupRange range) throws Exception {
        return new HeapKeyedStateBackend<>(new KeyedStateBackendParameters<>("op", "prefetch", 0,
                StringSerializer.INSTANCE, 128, range, List.of(), new SerializerConfig(), null, List.of(), null));
    }

    @Test
    void prefetchingChangesNothingWhateverTheKeys() throws Exception {
        KeyGroupRange range = KeyGroupRange.of(0, 63);
        HeapKeyedStateBackend<String> backend = backend(range);
        assertThat(backend.prefetchGroupSize()).isPositive();
        backend.prefetch(new int[] {"nothing-registered-yet".hashCode()}, new int[] {0}, 1);
        ValueState<Long> count = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
        @SuppressWarnings("unchecked")
        InternalValueState<String, Long, Long> perWindow = (InternalValueState<String, Long, Long>)
                backend.getOrCreateKeyedState(LongSerializer.INSTANCE, new ValueStateDescriptor<>("w", LongSerializer.INSTANCE));
        int stored = 0;
        for (int i = 0; i < 2_000; i++) {
            String key = "k" + i;
            if (range.contains(KeyGroupRangeAssignment.assignToKeyGroup(key, 128)) && i % 2 == 0) {
                backend.setCurrentKey(key);
                count.update((long) i);
                perWindow.setCurrentNamespace(7L);
                perWindow.update((long) -i);
                stored++;
            }
        }
        String current = null;
        for (int i = 0; current == null; i++) {
            if (range.contains(KeyGroupRangeAssignment.assignToKeyGroup("k" + i, 128))) {
                current = "k" + i;
            }
        }
        backend.setCurrentKey(current);
        int group = backend.prefetchGroupSize();
        int[] keyHashes = new int[group * 2];
        int[] keyGroups = new int[group * 2];
        for (int start = 0; start < 2_000; start += keyHashes.length) {
            for (int k = 0; k < keyHashes.length; k++) {
                String key = "k" + (start + k);
                keyHashes[k] = key.hashCode();
                keyGroups[k] = KeyGroupRangeAssignment.assignToKeyGroup(key, 128); // some outside 0..63
            }
            backend.prefetch(keyHashes, keyGroups, keyHashes.length); // more than a group: only the first are read
        }
        backend.prefetch(new int[] {"k1".hashCode()}, new int[] {-5}, 1); // a nonsense key group is skipped too
        assertThat(backend.getCurrentKey()).isEqualTo(current);
        assertThat(backend.numEntries("count")).isEqualTo(stored);
        assertThat(backend.numEntries("w")).isEqualTo(stored);
        for (int i = 0; i < 2_000; i++) {
            String key = "k" + i;
            if (!range.contains(KeyGroupRangeAssignment.assignToKeyGroup(key, 128))) {
                continue;
            }
            backend.setCurrentKey(key);
            perWindow.setCurrentNamespace(7L);
            assertThat(count.value()).as(key).isEqualTo(i % 2 == 0 ? (Long) (long) i : null);
            assertThat(perWindow.value()).as(key).isEqualTo(i % 2 == 0 ? (Long) (long) -i : null);
        }
        backend.close();
        backend.prefetch(keyHashes, keyGroups, group); // after close: nothing to read, no failure
    }
}
