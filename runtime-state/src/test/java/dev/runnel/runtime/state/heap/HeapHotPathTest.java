package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.internal.InternalValueState;
import java.lang.management.ManagementFactory;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The per-record path of the heap store, setCurrentKey plus value() and update() of a value state,
 * allocates nothing once every key has an entry (values are preallocated here) — except that a value
 * state of a boxed primitive boxes the value it returns unless it is a small {@code Long} or {@code Integer}
 * (its entry keeps the primitive in place, see {@link PrimitiveValue}) — and a read followed by a write of the
 * same key and namespace stays correct however keys and namespaces change.
 */
class HeapHotPathTest {

    private static HeapKeyedStateBackend<Integer> backend() throws Exception {
        return new HeapKeyedStateBackend<>(new KeyedStateBackendParameters<>("op", "hot-path", 0,
                IntSerializer.INSTANCE, 128, KeyGroupRange.of(0, 127), List.of(), new SerializerConfig(), null,
                List.of(), null));
    }

    private static long allocatedBytes() {
        return ((com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean())
                .getThreadAllocatedBytes(Thread.currentThread().getId());
    }

    @Test
    @Timeout(120)
    void readModifyWriteOfAValueStateAllocatesNothing() throws Exception {
        HeapKeyedStateBackend<Integer> backend = backend();
        ValueState<String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>("label", StringSerializer.INSTANCE));
        String[] values = new String[64];
        for (int i = 0; i < values.length; i++) {
            values[i] = "value-" + i;
        }
        long allocated = measure(backend, state, values);
        assertThat(allocated).as("bytes allocated by 200,000 read-modify-writes").isLessThan(16 * 1024);
    }

    @Test
    @Timeout(120)
    void aBoxedPrimitiveValueCostsOnlyTheBoxItReturns() throws Exception {
        HeapKeyedStateBackend<Integer> backend = backend();
        ValueState<Long> state = valueState(backend, "count", LongSerializer.INSTANCE);
        Long[] values = longs(1_000_000L);
        long allocated = measure(backend, state, values);
        // the 16-byte Long each read returns (plus JIT noise), never a cell or entry per update
        assertThat(allocated).as("bytes allocated by 200,000 read-modify-writes").isLessThan(200_000L * 32);
        backend.setCurrentKey(1_000_005);
        assertThat(state.value()).isIn((Object[]) values);
    }

    @Test
    @Timeout(120)
    void aSmallCountIsReadWithoutABox() throws Exception {
        HeapKeyedStateBackend<Integer> backend = backend();
        ValueState<Long> longs = valueState(backend, "count", LongSerializer.INSTANCE);
        Long[] values = longs(PrimitiveValue.SHARED_BOXES - 64); // past the JDK's cache, below ours
        assertThat(measure(backend, longs, values)).as("bytes allocated by 200,000 read-modify-writes of a Long")
                .isLessThan(16 * 1024);
        ValueState<Integer> ints = valueState(backend, "int-count", IntSerializer.INSTANCE);
        Integer[] intValues = new Integer[64];
        for (int i = 0; i < intValues.length; i++) {
            intValues[i] = Integer.valueOf(200 + i);
        }
        assertThat(measure(backend, ints, intValues)).as("bytes allocated by 200,000 read-modify-writes of an Integer")
                .isLessThan(16 * 1024);
    }

    @Test
    void valuesAtTheEdgesOfTheSharedBoxesReadBackEqual() throws Exception {
        HeapKeyedStateBackend<Integer> backend = backend();
        ValueState<Long> longs = valueState(backend, "count", LongSerializer.INSTANCE);
        ValueState<Integer> ints = valueState(backend, "int-count", IntSerializer.INSTANCE);
        int bound = PrimitiveValue.SHARED_BOXES;
        long[] edges = {Long.MIN_VALUE, Integer.MIN_VALUE, -129, -1, 0, 127, 128, bound - 1, bound,
                Integer.MAX_VALUE, (long) Integer.MAX_VALUE + 1, 1L << 32, Long.MAX_VALUE};
        for (int i = 0; i < edges.length; i++) {
            backend.setCurrentKey(i);
            longs.update(edges[i]);
            ints.update((int) edges[i]);
        }
        for (int i = 0; i < edges.length; i++) {
            backend.setCurrentKey(i);
            assertThat(longs.value()).as("Long %s", edges[i]).isEqualTo(edges[i]);
            assertThat(ints.value()).as("Integer %s", (int) edges[i]).isEqualTo((int) edges[i]);
        }
        backend.setCurrentKey(7); // bound - 1: one shared instance for every read
        assertThat(longs.value()).isSameAs(longs.value());
    }

    private static <V> ValueState<V> valueState(HeapKeyedStateBackend<Integer> backend, String name,
            TypeSerializer<V> serializer) throws Exception {
        return backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>(name, serializer));
    }

    /** 64 distinct {@code Long}s from {@code first} on. */
    private static Long[] longs(long first) {
        Long[] values = new Long[64];
        for (int i = 0; i < values.length; i++) {
            values[i] = first + i;
        }
        return values;
    }

    private static <V> long measure(HeapKeyedStateBackend<Integer> backend, ValueState<V> state, V[] values)
            throws Exception {
        int keyCount = 10_000;
        Integer[] keys = new Integer[keyCount];
        for (int i = 0; i < keyCount; i++) {
            keys[i] = 1_000_000 + i; // outside the Integer cache: real objects
        }
        long checksum = 0;
        // warm up: every key gets its entry, and the JIT compiles the path
        for (int round = 0; round < 400; round++) {
            checksum += run(backend, state, keys, values, round);
        }
        long before = allocatedBytes();
        for (int round = 0; round < 20; round++) {
            checksum += run(backend, state, keys, values, round);
        }
        long allocated = allocatedBytes() - before;
        assertThat(checksum).isNotZero();
        return allocated;
    }

    private static <V> long run(HeapKeyedStateBackend<Integer> backend, ValueState<V> state, Integer[] keys,
            V[] values, int round) throws Exception {
        long sum = 0;
        for (int i = 0; i < keys.length; i++) {
            backend.setCurrentKey(keys[i]);
            V current = state.value();
            if (current != null) {
                sum += current.hashCode();
            }
            state.update(values[(i + round) & 63]);
        }
        return sum;
    }

    @Test
    void theCachedEntryNeverLeaksAcrossKeysNamespacesOrRemovals() throws Exception {
        HeapKeyedStateBackend<Integer> backend = backend();
        InternalValueState<Integer, Long, Long> state = (InternalValueState<Integer, Long, Long>)
                backend.getOrCreateKeyedState(LongSerializer.INSTANCE,
                        new ValueStateDescriptor<>("v", LongSerializer.INSTANCE));
        Integer key = 1_000_001;
        backend.setCurrentKey(key);
        state.setCurrentNamespace(1L);
        state.update(10L);
        // same namespace value, new object: must find the same entry
        state.setCurrentNamespace(Long.valueOf(1_000_000L + 1L - 1_000_000L));
        assertThat(state.value()).isEqualTo(10L);
        state.setCurrentNamespace(2L);
        assertThat(state.value()).isNull();
        state.update(20L);
        state.setCurrentNamespace(1L);
        assertThat(state.value()).isEqualTo(10L);
        // the same key object set again still reads its entry; another key does not see it
        backend.setCurrentKey(key);
        assertThat(state.value()).isEqualTo(10L);
        backend.setCurrentKey(2_000_002);
        assertThat(state.value()).isNull();
        state.update(30L);
        backend.setCurrentKey(key);
        assertThat(state.value()).isEqualTo(10L);
        // a removal through clear() or a merge drops the cached entry
        state.clear();
        assertThat(state.value()).isNull();
        state.update(11L);
        assertThat(state.value()).isEqualTo(11L);
        assertThat(backend.numEntries("v")).isEqualTo(3);
        assertThat(backend.getKeys("v", 2L)).containsExactly(key);
        assertThat(backend.getKeys("v", VoidNamespace.INSTANCE)).isEmpty();
    }
}
