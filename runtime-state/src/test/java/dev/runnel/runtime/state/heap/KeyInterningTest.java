package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.ListSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.internal.InternalValueState;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.InternalTimerServiceImpl;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Entries of per-window state and timers keep one interned instance of a string or boxed-primitive
 * key, not each record's copy; per-key state, mutable key types and the lookups themselves are as before.
 */
class KeyInterningTest {

    private static <K> HeapKeyedStateBackend<K> backend(TypeSerializer<K> keySerializer) throws Exception {
        return new HeapKeyedStateBackend<>(new KeyedStateBackendParameters<>("op", "interning", 0,
                keySerializer, 128, KeyGroupRange.of(0, 127), List.of(), new SerializerConfig(), null,
                List.of(), null));
    }

    /** A {@code ValueState<Long>} named "count" under namespaces of {@code namespaces}. */
    private static <N> ValueState<Long> count(HeapKeyedStateBackend<?> backend, TypeSerializer<N> namespaces)
            throws Exception {
        return backend.getOrCreateKeyedState(namespaces, new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
    }

    /** A fresh instance equal to {@code s}, as every record of a stream brings its own. */
    private static String copyOf(String s) {
        return new String(s.toCharArray());
    }

    @Test
    @Timeout(60)
    void perWindowEntriesOfEqualKeysShareOneKeyInstance() throws Exception {
        HeapKeyedStateBackend<String> backend = backend(StringSerializer.INSTANCE);
        ValueState<Long> state = count(backend, LongSerializer.INSTANCE);
        @SuppressWarnings("unchecked")
        InternalValueState<String, Long, Long> perWindow = (InternalValueState<String, Long, Long>) state;
        for (long window = 0; window < 50; window++) {
            for (int k = 0; k < 200; k++) {
                backend.setCurrentKey(copyOf("key-" + k));
                perWindow.setCurrentNamespace(window);
                Long count = perWindow.value();
                perWindow.update(count == null ? 1 : count + 1);
            }
        }
        Map<String, Object> instances = new java.util.HashMap<>();
        IdentityHashMap<Object, Boolean> distinct = new IdentityHashMap<>();
        for (long window = 0; window < 50; window++) {
            for (String key : backend.getKeys("count", window).collect(Collectors.toList())) {
                distinct.put(key, true);
                Object first = instances.putIfAbsent(key, key);
                assertThat(first == null || first == key).as("one instance of %s in every window", key).isTrue();
            }
        }
        assertThat(instances).hasSize(200);
        assertThat(distinct).as("key objects kept by 10,000 entries").hasSize(200);
        // and the values are where they belong
        backend.setCurrentKey(copyOf("key-7"));
        perWindow.setCurrentNamespace(49L);
        assertThat(perWindow.value()).isEqualTo(1L);
    }

    @Test
    @Timeout(60)
    void perKeyStateAndMutableKeyTypesKeepTheKeyTheyWereGiven() throws Exception {
        HeapKeyedStateBackend<String> strings = backend(StringSerializer.INSTANCE);
        ValueState<Long> perKey = count(strings, VoidNamespaceSerializer.INSTANCE);
        String given = copyOf("only a key longer than an inline form");
        strings.setCurrentKey(given);
        perKey.update(1L);
        assertThat(strings.getKeys("count", dev.runnel.runtime.state.VoidNamespace.INSTANCE).findFirst())
                .hasValueSatisfying(k -> assertThat(k).isSameAs(given));
        // a key short enough for an inline form is kept as its form (PrimitiveStateMap): an equal key comes back
        String shortKey = copyOf("w42");
        strings.setCurrentKey(shortKey);
        perKey.update(2L);
        assertThat(strings.getKeys("count", dev.runnel.runtime.state.VoidNamespace.INSTANCE).toList())
                .containsExactlyInAnyOrder(given, "w42");
        strings.setCurrentKey(copyOf("w42"));
        assertThat(perKey.value()).isEqualTo(2L);

        ListSerializer<Integer> listKeys = new ListSerializer<>(IntSerializer.INSTANCE);
        assertThat(KeyInterner.internable(listKeys)).isFalse();
        HeapKeyedStateBackend<List<Integer>> lists = backend(listKeys);
        List<Integer> first = new ArrayList<>(List.of(1, 2));
        List<Integer> second = new ArrayList<>(List.of(1, 2));
        lists.setCurrentKey(first);
        assertThat(lists.retainedCurrentKey()).isSameAs(first);
        lists.setCurrentKey(second);
        assertThat(lists.retainedCurrentKey()).as("a mutable key type is never interned").isSameAs(second);
    }

    @Test
    @Timeout(60)
    void timersKeepTheInternedKeyAndFireOncePerKeyAndTime() throws Exception {
        HeapKeyedStateBackend<String> backend = backend(StringSerializer.INSTANCE);
        List<InternalTimer<String, Long>> fired = new ArrayList<>();
        InternalTimerServiceImpl<String, Long> timers = HeapTimerServices.eventTimers(backend, StringSerializer.INSTANCE,
                fired);
        for (long window = 0; window < 20; window++) {
            for (int k = 0; k < 100; k++) {
                backend.setCurrentKey(copyOf("key-" + k));
                timers.registerEventTimeTimer(window, window * 1000 + 999);
                timers.registerEventTimeTimer(window, window * 1000 + 999); // a trigger's cleanup timer: the same
            }
        }
        timers.advanceWatermark(Long.MAX_VALUE);
        assertThat(fired).hasSize(2_000);
        IdentityHashMap<Object, Boolean> distinct = new IdentityHashMap<>();
        for (InternalTimer<String, Long> timer : fired) {
            distinct.put(timer.getKey(), true);
        }
        assertThat(distinct).as("key objects kept by 2,000 timers of 100 keys").hasSize(100);
    }

    @Test
    void theInternerIsBoundedAndGrowsOnlyWhileKeysCollide() {
        KeyInterner<Long> interner = new KeyInterner<>();
        Long a = 1_000_000L;
        Long b = Long.valueOf(1_000_000L);
        assertThat(b).isNotSameAs(a);
        assertThat(interner.intern(a, a.hashCode())).isSameAs(a);
        assertThat(interner.intern(b, b.hashCode())).as("an equal key gets the kept instance").isSameAs(a);

        // a working set that fits stops the growth
        for (int round = 0; round < 20; round++) {
            for (long k = 0; k < 500; k++) {
                Long key = 5_000_000L + k;
                interner.intern(key, key.hashCode());
            }
        }
        int settled = interner.capacity();
        assertThat(settled).isLessThanOrEqualTo(KeyInterner.MAX_SLOTS);
        for (long k = 0; k < 500; k++) {
            Long key = 5_000_000L + k;
            interner.intern(key, key.hashCode());
        }
        assertThat(interner.capacity()).isEqualTo(settled);

        // ever new keys: the table stops at its bound, and every key still comes back equal to itself
        for (long k = 0; k < 2_000_000; k++) {
            Long key = 10_000_000L + k;
            assertThat(interner.intern(key, key.hashCode())).isEqualTo(key);
        }
        assertThat(interner.capacity()).isEqualTo(KeyInterner.MAX_SLOTS);
    }
}
