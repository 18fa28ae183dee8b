package dev.runnel.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.AggregatingState;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReducingState;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.internal.InternalAggregatingState;
import dev.runnel.runtime.state.internal.InternalKvState;
import dev.runnel.runtime.state.internal.InternalListState;
import dev.runnel.runtime.state.internal.InternalMapState;
import dev.runnel.runtime.state.internal.InternalReducingState;
import dev.runnel.runtime.state.internal.InternalValueState;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import dev.runnel.runtime.timers.TimerSerializer;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The behaviour every {@link KeyedStateBackend} must have, run against each store by a subclass:
 * all state kinds in the void namespace and in several namespaces, iteration, clearing, merging,
 * internal access, key listing, registration errors, time-to-live, timers (including a million
 * random operations checked against a model), snapshots of key-group subsets, restores at the same
 * and another parallelism, late registration after restore, and errors for corrupt snapshots.
 *
 * <p>A subclass provides {@link #backend()}; backends are created through
 * {@link #createBackend}, with a manual TTL clock ({@link #clock}) and local directories under the
 * JUnit temporary directory {@link #tempDir}, and closed after each test. A subclass may override
 * {@link #localDirectories()} to place working files elsewhere.
 *
 * <p>The snapshot format is shared, so the corruption tests compute byte positions from it directly.
 * Every test has a time limit (a class-level {@link Timeout}, longer for the million-operation test),
 * so a hanging store fails instead of stalling the build.
 */
@Timeout(120)
public abstract class StateBackendTestBase extends StateBackendTestFixture {

    // ------------------------------------------------------------------ value state

    @Nested
    class Value {

        @Test
        void perKeyValuesInTheVoidNamespace() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("count"));
            assertThat(state).isInstanceOf(InternalValueState.class);
            for (int key = 0; key < 1000; key++) {
                backend.setCurrentKey(key);
                assertThat(state.value()).isNull();
                state.update((long) key * 3);
            }
            for (int key = 0; key < 1000; key++) {
                backend.setCurrentKey(key);
                assertThat(state.value()).isEqualTo(key * 3L);
                assertThat(backend.getCurrentKey()).isEqualTo(key);
                assertThat(backend.getCurrentKeyGroupIndex()).isEqualTo(keyGroupOf(key));
            }
            backend.setCurrentKey(7);
            state.clear();
            assertThat(state.value()).isNull();
            backend.setCurrentKey(8);
            state.update(null);
            assertThat(state.value()).as("update(null) clears").isNull();
            backend.setCurrentKey(9);
            assertThat(state.value()).isEqualTo(27L);
        }

        @Test
        void readThenWriteOfTheSameKeyAndNewKeyObjects() throws Exception {
            KeyedStateBackend<String> backend = createBackend(StringSerializer.INSTANCE, ALL, List.of());
            ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("v"));
            for (int round = 0; round < 5; round++) {
                for (int i = 0; i < 200; i++) {
                    // a new, equal key object each time
                    backend.setCurrentKey(new String("key-" + i));
                    Long current = state.value();
                    state.update(current == null ? 1L : current + 1);
                }
            }
            for (int i = 0; i < 200; i++) {
                backend.setCurrentKey("key-" + i);
                assertThat(state.value()).isEqualTo(5L);
            }
            // switching keys between a read and a write must write the new key
            backend.setCurrentKey("a");
            state.update(1L);
            assertThat(state.value()).isEqualTo(1L);
            backend.setCurrentKey("b");
            state.update(2L);
            backend.setCurrentKey("a");
            assertThat(state.value()).isEqualTo(1L);
        }

        @Test
        void namespacesAreIndependent() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> state = backend.getOrCreateKeyedState(LongSerializer.INSTANCE, longValue("per-window"));
            InternalValueState<Integer, Long, Long> internal = internal(state);
            for (int key = 0; key < 50; key++) {
                backend.setCurrentKey(key);
                for (long window = 0; window < 4; window++) {
                    internal.setCurrentNamespace(window);
                    state.update(key * 100 + window);
                }
            }
            backend.setCurrentKey(3);
            internal.setCurrentNamespace(2L);
            assertThat(state.value()).isEqualTo(302L);
            state.clear();
            assertThat(state.value()).isNull();
            internal.setCurrentNamespace(1L);
            assertThat(state.value()).as("other namespace untouched").isEqualTo(301L);
            assertThat(internal.getNamespaceSerializer()).isEqualTo(LongSerializer.INSTANCE);
            assertThat(internal.getKeySerializer()).isEqualTo(IntSerializer.INSTANCE);
            assertThat(internal.getValueSerializer()).isEqualTo(LongSerializer.INSTANCE);
        }

        @Test
        void theSameDescriptorTwiceGivesTheSameState() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> a = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("x"));
            ValueState<Long> b = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("x"));
            backend.setCurrentKey(1);
            a.update(5L);
            assertThat(b.value()).isEqualTo(5L);
        }
    }

    // ------------------------------------------------------------------ list state

    @Nested
    class Lists {

        @Test
        void addGetUpdateAndClear() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ListState<String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, stringList("l"));
            assertThat(state).isInstanceOf(InternalListState.class);
            backend.setCurrentKey(1);
            assertThat(state.get()).as("absent: empty, not null").isNotNull().isEmpty();
            state.add("a");
            state.add("b");
            state.addAll(List.of("c", "d"));
            assertThat(list(state.get())).containsExactly("a", "b", "c", "d");
            backend.setCurrentKey(2);
            assertThat(state.get()).isEmpty();
            state.addAll(List.of("x"));
            state.addAll(List.of());
            assertThat(list(state.get())).containsExactly("x");
            backend.setCurrentKey(1);
            state.update(List.of("z", "y"));
            assertThat(list(state.get())).containsExactly("z", "y");
            state.update(List.of());
            assertThat(state.get()).as("update with an empty list clears").isEmpty();
            backend.setCurrentKey(2);
            state.clear();
            assertThat(state.get()).isEmpty();
        }

        @Test
        void nullElementsAreRejectedWithoutChangingTheList() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ListState<String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, stringList("l"));
            backend.setCurrentKey(1);
            state.add("a");
            assertThatThrownBy(() -> state.add(null)).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> state.addAll(Arrays.asList("b", null))).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> state.update(Arrays.asList("c", null))).isInstanceOf(NullPointerException.class);
            assertThatThrownBy(() -> state.update(null)).isInstanceOf(NullPointerException.class);
            assertThat(list(state.get())).containsExactly("a");
        }

        @Test
        void listsPerNamespace() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ListState<String> state = backend.getOrCreateKeyedState(LongSerializer.INSTANCE, stringList("l"));
            InternalListState<Integer, Long, String> internal = internal(state);
            backend.setCurrentKey(4);
            for (long ns = 0; ns < 3; ns++) {
                internal.setCurrentNamespace(ns);
                state.add("e" + ns);
                state.add("f" + ns);
            }
            internal.setCurrentNamespace(1L);
            assertThat(list(state.get())).containsExactly("e1", "f1");
            assertThat(internal.getInternal()).containsExactly("e1", "f1");
            internal.updateInternal(new ArrayList<>(List.of("g")));
            assertThat(list(state.get())).containsExactly("g");
            internal.updateInternal(null);
            assertThat(state.get()).isEmpty();
            assertThat(internal.getInternal()).isNullOrEmpty();
            internal.setCurrentNamespace(2L);
            assertThat(list(state.get())).containsExactly("e2", "f2");
        }
    }

    // ------------------------------------------------------------------ map state

    @Nested
    class Maps {

        @Test
        void putGetRemoveAndIterate() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            MapState<Integer, String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, intStringMap("m"));
            assertThat(state).isInstanceOf(InternalMapState.class);
            backend.setCurrentKey(1);
            assertThat(state.isEmpty()).isTrue();
            assertThat(state.entries()).isEmpty();
            assertThat(state.keys()).isEmpty();
            assertThat(state.values()).isEmpty();
            assertThat(state.iterator().hasNext()).isFalse();
            assertThat(state.get(5)).isNull();
            state.put(1, "one");
            state.put(2, "two");
            state.put(3, null);
            state.putAll(Map.of(4, "four", 5, "five"));
            assertThat(state.get(1)).isEqualTo("one");
            assertThat(state.contains(3)).as("null value is still an entry").isTrue();
            assertThat(state.get(3)).isNull();
            assertThat(state.contains(9)).isFalse();
            Map<Integer, String> expected = new HashMap<>(Map.of(1, "one", 2, "two", 4, "four", 5, "five"));
            expected.put(3, null);
            assertThat(map(state.entries())).isEqualTo(expected);
            assertThat(list(state.keys())).containsExactlyInAnyOrder(1, 2, 3, 4, 5);
            assertThat(list(state.values())).containsExactlyInAnyOrder("one", "two", null, "four", "five");
            state.remove(2);
            assertThat(state.contains(2)).isFalse();
            for (Iterator<Map.Entry<Integer, String>> it = state.iterator(); it.hasNext(); ) {
                if (it.next().getKey() % 2 == 1) {
                    it.remove();
                }
            }
            assertThat(map(state.entries())).isEqualTo(Map.of(4, "four"));
            backend.setCurrentKey(2);
            assertThat(state.isEmpty()).isTrue();
            state.put(7, "seven");
            backend.setCurrentKey(1);
            state.clear();
            assertThat(state.isEmpty()).isTrue();
            backend.setCurrentKey(2);
            assertThat(state.get(7)).isEqualTo("seven");
            assertThatThrownBy(() -> state.put(null, "x")).isInstanceOf(NullPointerException.class);
        }

        @Test
        void removingTheLastEntryEmptiesTheKey() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            MapState<Integer, String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, intStringMap("m"));
            backend.setCurrentKey(1);
            state.put(1, "a");
            state.remove(1);
            assertThat(state.isEmpty()).isTrue();
            assertThat(backend.getKeys("m", VoidNamespace.INSTANCE)).isEmpty();
        }

        @Test
        void mapsPerNamespace() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            MapState<Integer, String> state = backend.getOrCreateKeyedState(LongSerializer.INSTANCE, intStringMap("m"));
            InternalMapState<Integer, Long, Integer, String> internal = internal(state);
            backend.setCurrentKey(9);
            internal.setCurrentNamespace(10L);
            state.put(1, "ten");
            internal.setCurrentNamespace(20L);
            state.put(1, "twenty");
            assertThat(state.get(1)).isEqualTo("twenty");
            internal.setCurrentNamespace(10L);
            assertThat(map(state.entries())).isEqualTo(Map.of(1, "ten"));
        }
    }

    // ------------------------------------------------------------------ reducing and aggregating

    @Nested
    class ReducingAndAggregating {

        @Test
        void reducingStateReduces() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ReducingState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sum("sum"));
            assertThat(state).isInstanceOf(InternalReducingState.class);
            for (int key = 0; key < 20; key++) {
                backend.setCurrentKey(key);
                assertThat(state.get()).isNull();
                for (long v = 1; v <= key; v++) {
                    state.add(v);
                }
            }
            backend.setCurrentKey(10);
            assertThat(state.get()).isEqualTo(55L);
            state.clear();
            assertThat(state.get()).isNull();
            backend.setCurrentKey(4);
            assertThat(state.get()).isEqualTo(10L);
            InternalReducingState<Integer, VoidNamespace, Long> internal = internal(state);
            assertThat(internal.getInternal()).isEqualTo(10L);
            internal.updateInternal(100L);
            state.add(1L);
            assertThat(state.get()).isEqualTo(101L);
            internal.updateInternal(null);
            assertThat(state.get()).isNull();
        }

        @Test
        void aggregatingStateAggregates() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            AggregatingState<Integer, Double> state =
                    backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, average("avg"));
            assertThat(state).isInstanceOf(InternalAggregatingState.class);
            backend.setCurrentKey(1);
            assertThat(state.get()).isNull();
            state.add(2);
            state.add(4);
            state.add(9);
            assertThat(state.get()).isEqualTo(5.0);
            backend.setCurrentKey(2);
            state.add(1);
            assertThat(state.get()).isEqualTo(1.0);
            InternalAggregatingState<Integer, VoidNamespace, Integer, String, Double> internal = internal(state);
            assertThat(internal.getInternal()).isEqualTo("1,1");
            internal.updateInternal("2,10");
            assertThat(state.get()).isEqualTo(5.0);
            state.clear();
            assertThat(state.get()).isNull();
            assertThat(internal.getInternal()).isNull();
            backend.setCurrentKey(1);
            assertThat(state.get()).isEqualTo(5.0);
        }
    }

    // ------------------------------------------------------------------ merging

    @Nested
    class Merging {

        @Test
        void listsMergeIntoTheTargetAndSourcesAreCleared() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            InternalListState<Integer, Long, String> state =
                    internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, stringList("l")));
            backend.setCurrentKey(1);
            state.setCurrentNamespace(1L);
            state.addAll(List.of("a", "b"));
            state.setCurrentNamespace(2L);
            state.add("c");
            state.setCurrentNamespace(3L);
            state.add("t");
            backend.setCurrentKey(2);
            state.setCurrentNamespace(1L);
            state.add("other key");
            backend.setCurrentKey(1);
            state.mergeNamespaces(3L, List.of(1L, 2L, 99L));
            state.setCurrentNamespace(3L);
            assertThat(list(state.get())).containsExactlyInAnyOrder("t", "a", "b", "c");
            state.setCurrentNamespace(1L);
            assertThat(state.get()).isEmpty();
            state.setCurrentNamespace(2L);
            assertThat(state.get()).isEmpty();
            backend.setCurrentKey(2);
            state.setCurrentNamespace(1L);
            assertThat(list(state.get())).as("other key untouched").containsExactly("other key");
        }

        @Test
        void mergingIntoAnEmptyTargetAndWithTheTargetAmongTheSources() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            InternalReducingState<Integer, Long, Long> state =
                    internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, sum("s")));
            backend.setCurrentKey(5);
            state.setCurrentNamespace(1L);
            state.add(10L);
            state.setCurrentNamespace(2L);
            state.add(20L);
            state.mergeNamespaces(7L, List.of(1L, 2L));
            state.setCurrentNamespace(7L);
            assertThat(state.get()).isEqualTo(30L);
            state.setCurrentNamespace(8L);
            state.add(5L);
            state.mergeNamespaces(7L, List.of(7L, 8L));
            state.setCurrentNamespace(7L);
            assertThat(state.get()).isEqualTo(35L);
            state.setCurrentNamespace(8L);
            assertThat(state.get()).isNull();
            state.mergeNamespaces(9L, List.of(100L, 101L));
            state.setCurrentNamespace(9L);
            assertThat(state.get()).as("nothing to merge").isNull();
            state.mergeNamespaces(9L, List.of());
            assertThat(state.get()).isNull();
        }

        @Test
        void aggregatingMergesAccumulators() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            InternalAggregatingState<Integer, Long, Integer, String, Double> state =
                    internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, average("a")));
            backend.setCurrentKey(3);
            state.setCurrentNamespace(1L);
            state.add(1);
            state.add(3);
            state.setCurrentNamespace(2L);
            state.add(8);
            state.mergeNamespaces(1L, List.of(2L));
            state.setCurrentNamespace(1L);
            assertThat(state.get()).isEqualTo(4.0);
            assertThat(state.getInternal()).isEqualTo("3,12");
            state.setCurrentNamespace(2L);
            assertThat(state.get()).isNull();
        }
    }

    // ------------------------------------------------------------------ keys and registration

    @Nested
    class KeysAndRegistration {

        @Test
        void getKeysListsTheKeysOfANamespace() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            InternalValueState<Integer, Long, Long> state =
                    internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, longValue("v")));
            Set<Integer> inOne = new HashSet<>();
            for (int key = 0; key < 300; key++) {
                backend.setCurrentKey(key);
                state.setCurrentNamespace(key % 3 == 0 ? 1L : 2L);
                state.update((long) key);
                if (key % 3 == 0) {
                    inOne.add(key);
                }
            }
            assertThat(backend.getKeys("v", 1L).collect(Collectors.toSet())).isEqualTo(inOne);
            backend.setCurrentKey(0);
            state.setCurrentNamespace(1L);
            state.clear();
            inOne.remove(0);
            assertThat(backend.getKeys("v", 1L).collect(Collectors.toSet())).isEqualTo(inOne);
            assertThat(backend.getKeys("v", 3L)).isEmpty();
            assertThat(backend.getKeys("unknown", 1L)).isEmpty();
            // the stream may be consumed while clearing what it lists
            backend.getKeys("v", 2L).forEach(key -> {
                backend.setCurrentKey(key);
                state.setCurrentNamespace(2L);
                state.clear();
            });
            assertThat(backend.getKeys("v", 2L)).isEmpty();
        }

        @Test
        void registeringANameAgainAsAnotherKindFailsNamingTheState() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("shared-name"));
            assertThatThrownBy(() -> backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, stringList("shared-name")))
                    .hasMessageContaining("shared-name");
            assertThatThrownBy(() -> backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("shared-name", StringSerializer.INSTANCE)))
                    .hasMessageContaining("shared-name");
            assertThatThrownBy(() -> backend.getOrCreateKeyedState(LongSerializer.INSTANCE, longValue("shared-name")))
                    .hasMessageContaining("shared-name");
        }

        @Test
        void aKeyOutsideTheRangeFailsNamingItsKeyGroup() throws Exception {
            KeyGroupRange lower = KeyGroupRange.of(0, 63);
            KeyedStateBackend<Integer> backend = createBackend(IntSerializer.INSTANCE, lower, List.of());
            int outside = keyIn(KeyGroupRange.of(64, 127), 0);
            assertThatThrownBy(() -> backend.setCurrentKey(outside))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("key group " + keyGroupOf(outside))
                    .hasMessageContaining(lower.toString());
            int inside = keyIn(lower, 0);
            backend.setCurrentKey(inside);
            assertThat(backend.getCurrentKeyGroupIndex()).isEqualTo(keyGroupOf(inside));
            assertThat(backend.getKeyGroupRange()).isEqualTo(lower);
            assertThat(backend.getNumberOfKeyGroups()).isEqualTo(KEY_GROUPS);
            assertThat(backend.getKeySerializer()).isEqualTo(IntSerializer.INSTANCE);
        }

        @Test
        void setCurrentKeyAndKeyGroupSelectsTheSameEntries() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("v"));
            backend.setCurrentKeyAndKeyGroup(42, keyGroupOf(42));
            state.update(1L);
            backend.setCurrentKey(42);
            assertThat(state.value()).isEqualTo(1L);
        }

        @Test
        void aClosedBackendCannotBeUsed() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("v"));
            backend.close();
            assertThatThrownBy(() -> backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("w")))
                    .isInstanceOf(Exception.class);
        }
    }

    // ------------------------------------------------------------------ time-to-live

    @Nested
    class TimeToLive {

        private <D extends dev.runnel.api.common.state.StateDescriptor<?, ?>> D ttl(D descriptor,
                StateTtlConfig.UpdateType update, StateTtlConfig.StateVisibility visibility) {
            descriptor.enableTimeToLive(StateTtlConfig.newBuilder(Duration.ofMillis(100))
                    .setUpdateType(update).setStateVisibility(visibility).build());
            return descriptor;
        }

        private <D extends dev.runnel.api.common.state.StateDescriptor<?, ?>> D ttl(D descriptor) {
            return ttl(descriptor, StateTtlConfig.UpdateType.OnCreateAndWrite, StateTtlConfig.StateVisibility.NeverReturnExpired);
        }

        @Test
        void valuesExpireAfterTheirTtlSinceTheLastWrite() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, ttl(longValue("v")));
            assertThat(state).isInstanceOf(InternalValueState.class);
            backend.setCurrentKey(1);
            state.update(1L);
            clock.advance(60);
            assertThat(state.value()).isEqualTo(1L);
            clock.advance(39);
            assertThat(state.value()).as("99 ms after the write").isEqualTo(1L);
            clock.advance(1);
            assertThat(state.value()).as("100 ms after the write").isNull();
            state.update(2L);
            clock.advance(99);
            state.update(3L);
            clock.advance(99);
            assertThat(state.value()).as("the second write restarted the clock").isEqualTo(3L);
        }

        @Test
        void readsRestartTheClockWithOnReadAndWrite() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    ttl(longValue("v"), StateTtlConfig.UpdateType.OnReadAndWrite, StateTtlConfig.StateVisibility.NeverReturnExpired));
            backend.setCurrentKey(1);
            state.update(7L);
            for (int i = 0; i < 5; i++) {
                clock.advance(80);
                assertThat(state.value()).isEqualTo(7L);
            }
            clock.advance(100);
            assertThat(state.value()).isNull();
        }

        @Test
        void expiredValuesAreReturnedOnceIfNotCleanedUp() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    ttl(longValue("v"), StateTtlConfig.UpdateType.OnCreateAndWrite,
                            StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp));
            backend.setCurrentKey(1);
            state.update(7L);
            clock.advance(500);
            assertThat(state.value()).as("expired but not cleaned up yet").isEqualTo(7L);
            assertThat(state.value()).as("the read cleaned it up").isNull();
        }

        @Test
        void listElementsExpireOneByOne() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ListState<String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, ttl(stringList("l")));
            assertThat(state).isInstanceOf(InternalListState.class);
            backend.setCurrentKey(1);
            state.add("old");
            clock.advance(60);
            state.addAll(List.of("new", "newer"));
            assertThat(list(state.get())).containsExactly("old", "new", "newer");
            clock.advance(50);
            assertThat(list(state.get())).containsExactly("new", "newer");
            clock.advance(60);
            assertThat(state.get()).isEmpty();
            state.update(List.of("fresh"));
            assertThat(list(state.get())).containsExactly("fresh");
            InternalListState<Integer, VoidNamespace, String> internal = internal(state);
            assertThat(internal.getInternal()).containsExactly("fresh");
        }

        @Test
        void mapEntriesExpireOneByOne() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            MapState<Integer, String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    ttl(intStringMap("m")));
            assertThat(state).isInstanceOf(InternalMapState.class);
            backend.setCurrentKey(1);
            state.put(1, "old");
            state.put(3, null);
            clock.advance(60);
            state.put(2, "new");
            assertThat(map(state.entries())).containsEntry(1, "old").containsEntry(2, "new").containsKey(3);
            clock.advance(50);
            assertThat(state.get(1)).isNull();
            assertThat(state.contains(3)).isFalse();
            assertThat(state.contains(2)).isTrue();
            assertThat(map(state.entries())).isEqualTo(Map.of(2, "new"));
            assertThat(list(state.keys())).containsExactly(2);
            assertThat(state.isEmpty()).isFalse();
            clock.advance(100);
            assertThat(state.isEmpty()).isTrue();
            assertThat(state.values()).isEmpty();
        }

        @Test
        void reducingAndAggregatingValuesExpire() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ReducingState<Long> sum = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, ttl(sum("s")));
            AggregatingState<Integer, Double> avg = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    ttl(average("a")));
            assertThat(sum).isInstanceOf(InternalReducingState.class);
            assertThat(avg).isInstanceOf(InternalAggregatingState.class);
            backend.setCurrentKey(1);
            sum.add(5L);
            avg.add(4);
            clock.advance(60);
            sum.add(6L);
            avg.add(8);
            assertThat(sum.get()).isEqualTo(11L);
            assertThat(avg.get()).isEqualTo(6.0);
            clock.advance(99);
            assertThat(sum.get()).as("the add restarted the clock").isEqualTo(11L);
            assertThat(avg.get()).isEqualTo(6.0);
            clock.advance(1);
            assertThat(sum.get()).isNull();
            assertThat(avg.get()).isNull();
            clock.advance(1000);
            sum.add(1L);
            avg.add(1);
            clock.advance(150);
            sum.add(2L);
            avg.add(3);
            assertThat(sum.get()).as("adding to an expired value starts afresh").isEqualTo(2L);
            assertThat(avg.get()).isEqualTo(3.0);
        }

        @Test
        void mergingTtlStateIgnoresExpiredSources() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            InternalReducingState<Integer, Long, Long> sum =
                    internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, ttl(sum("s"))));
            InternalListState<Integer, Long, String> names =
                    internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, ttl(stringList("l"))));
            backend.setCurrentKey(1);
            sum.setCurrentNamespace(1L);
            sum.add(1L);
            names.setCurrentNamespace(1L);
            names.add("expired");
            clock.advance(150);
            sum.setCurrentNamespace(2L);
            sum.add(2L);
            names.setCurrentNamespace(2L);
            names.add("live");
            sum.mergeNamespaces(3L, List.of(1L, 2L));
            names.mergeNamespaces(3L, List.of(1L, 2L));
            sum.setCurrentNamespace(3L);
            names.setCurrentNamespace(3L);
            assertThat(sum.get()).isEqualTo(2L);
            assertThat(list(names.get())).containsExactly("live");
        }

        @Test
        void expiredEntriesAreLeftOutOfSnapshots() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, ttl(longValue("v"),
                    StateTtlConfig.UpdateType.OnCreateAndWrite, StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp));
            ListState<String> names = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, ttl(stringList("l"),
                    StateTtlConfig.UpdateType.OnCreateAndWrite, StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp));
            MapState<Integer, String> attributes = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    ttl(intStringMap("m"), StateTtlConfig.UpdateType.OnCreateAndWrite,
                            StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp));
            backend.setCurrentKey(1);
            value.update(1L);
            names.add("old");
            attributes.put(1, "old");
            backend.setCurrentKey(2);
            value.update(2L);
            clock.advance(60);
            names.add("new");
            attributes.put(2, "new");
            backend.setCurrentKey(3);
            value.update(3L);
            clock.advance(50); // key 1's and 2's values and the "old" entries expired, not read
            KeyedStateHandle handle = snapshotToFile(backend, ALL);

            KeyedStateBackend<Integer> restored = restore(ALL, handle);
            ValueState<Long> value2 = restored.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, ttl(longValue("v"),
                    StateTtlConfig.UpdateType.OnCreateAndWrite, StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp));
            ListState<String> names2 = restored.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, ttl(stringList("l"),
                    StateTtlConfig.UpdateType.OnCreateAndWrite, StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp));
            MapState<Integer, String> attributes2 = restored.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    ttl(intStringMap("m"), StateTtlConfig.UpdateType.OnCreateAndWrite,
                            StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp));
            restored.setCurrentKey(1);
            assertThat(value2.value()).as("expired: not in the snapshot, so not even returned once").isNull();
            restored.setCurrentKey(2);
            assertThat(value2.value()).isNull();
            assertThat(list(names2.get())).containsExactly("new");
            assertThat(map(attributes2.entries())).isEqualTo(Map.of(2, "new"));
            restored.setCurrentKey(3);
            assertThat(value2.value()).isEqualTo(3L);
            assertThat(restored.getKeys("v", VoidNamespace.INSTANCE).collect(Collectors.toSet())).containsExactly(3);
        }

        @Test
        void aTtlStateDoesNotRestoreAsAPlainOne() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, ttl(longValue("v")));
            backend.setCurrentKey(1);
            value.update(1L);
            KeyedStateBackend<Integer> restored = restore(ALL, snapshotToMemory(backend, ALL));
            assertThatThrownBy(() -> restored.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("v")))
                    .satisfies(e -> assertThat(messages(e)).contains("'v'"));
        }
    }

    // ------------------------------------------------------------------ timers

    @Nested
    class Timers {

        @Test
        void pollInTimestampOrderAcrossKeys() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            var queue = timers(backend, "event");
            long[] times = {50, -5, 30, 10, 40, 20, Long.MIN_VALUE, Long.MAX_VALUE};
            for (int i = 0; i < times.length; i++) {
                queue.add(timer(times[i], i * 31, 0L));
            }
            assertThat(queue.size()).isEqualTo(times.length);
            assertThat(queue.peek().getTimestamp()).isEqualTo(Long.MIN_VALUE);
            assertThat(drain(queue)).extracting(TimerHeapInternalTimer::getTimestamp)
                    .containsExactly(Long.MIN_VALUE, -5L, 10L, 20L, 30L, 40L, 50L, Long.MAX_VALUE);
            assertThat(queue.isEmpty()).isTrue();
            assertThat(queue.peek()).isNull();
        }

        @Test
        void equalTimersAreDeduplicatedAndDeletable() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            var queue = timers(backend, "event");
            assertThat(queue.add(timer(10, 1, 0L))).isTrue();
            assertThat(queue.add(timer(10, 1, 0L))).as("equal timer").isFalse();
            assertThat(queue.add(timer(10, 1, 1L))).as("other namespace").isFalse();
            assertThat(queue.add(timer(10, 2, 0L))).as("other key").isFalse();
            assertThat(queue.size()).isEqualTo(3);
            // equal timestamps: the first timer stays the head in both stores (heap order, byte order)
            assertThat(queue.peek()).isEqualTo(timer(10, 1, 0L));
            assertThat(queue.remove(timer(10, 1, 1L))).as("not the head").isFalse();
            assertThat(queue.size()).isEqualTo(2);
            assertThat(queue.remove(timer(10, 1, 1L))).as("already gone").isFalse();
            assertThat(queue.remove(timer(11, 1, 0L))).as("never added").isFalse();
            Set<TimerHeapInternalTimer<Integer, Long>> remaining = new HashSet<>(drain(queue));
            assertThat(remaining).containsExactlyInAnyOrder(timer(10, 1, 0L), timer(10, 2, 0L));
        }

        @Test
        void headChangedFlags() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            var queue = timers(backend, "event");
            assertThat(queue.add(timer(20, 1, 0L))).as("first").isTrue();
            assertThat(queue.add(timer(30, 2, 0L))).as("later").isFalse();
            assertThat(queue.add(timer(10, 3, 0L))).as("earlier").isTrue();
            assertThat(queue.remove(timer(30, 2, 0L))).as("not the head").isFalse();
            assertThat(queue.remove(timer(10, 3, 0L))).as("the head").isTrue();
            assertThat(queue.peek()).isEqualTo(timer(20, 1, 0L));
            assertThat(queue.remove(timer(20, 1, 0L))).isTrue();
            assertThat(queue.isEmpty()).isTrue();
        }

        @Test
        void subsetsPerKeyGroup() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            var queue = timers(backend, "event");
            Map<Integer, Set<TimerHeapInternalTimer<Integer, Long>>> byGroup = new HashMap<>();
            for (int key = 0; key < 200; key++) {
                TimerHeapInternalTimer<Integer, Long> t = timer(key, key, 0L);
                queue.add(t);
                byGroup.computeIfAbsent(keyGroupOf(key), g -> new HashSet<>()).add(t);
            }
            for (int kg = 0; kg < KEY_GROUPS; kg++) {
                assertThat(queue.getSubsetForKeyGroup(kg)).isEqualTo(byGroup.getOrDefault(kg, Set.of()));
            }
            Set<TimerHeapInternalTimer<Integer, Long>> all = new HashSet<>();
            queue.iterator().forEachRemaining(all::add);
            assertThat(all).hasSize(200);
        }

        @Test
        void theSameNameGivesTheSameQueue() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            timers(backend, "event").add(timer(1, 1, 0L));
            assertThat(timers(backend, "event").peek()).isEqualTo(timer(1, 1, 0L));
            assertThat(timers(backend, "processing").peek()).isNull();
        }

        @Test
        @Timeout(300)
        void aMillionRandomAddsAndDeletesMatchAModel() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            var queue = timers(backend, "event");
            Random random = new Random(20240601);
            Set<TimerHeapInternalTimer<Integer, Long>> model = new HashSet<>();
            TreeMap<Long, Integer> countByTime = new TreeMap<>();
            List<TimerHeapInternalTimer<Integer, Long>> added = new ArrayList<>();
            Set<Integer> keyGroupsUsed = new HashSet<>();
            for (int op = 0; op < 1_000_000; op++) {
                TimerHeapInternalTimer<Integer, Long> head = queue.peek();
                int choice = random.nextInt(100);
                if (choice < 55) {
                    TimerHeapInternalTimer<Integer, Long> t =
                            timer(random.nextInt(50_000), random.nextInt(10_000), random.nextInt(3));
                    boolean changed = queue.add(t);
                    boolean isNew = model.add(t);
                    if (isNew) {
                        countByTime.merge(t.getTimestamp(), 1, Integer::sum);
                        added.add(t);
                        keyGroupsUsed.add(keyGroupOf(t.getKey()));
                    }
                    if (!isNew || (head != null && t.getTimestamp() > head.getTimestamp())) {
                        assertThat(changed).as("op %s: add of %s cannot change head %s", op, t, head).isFalse();
                    } else if (head == null || t.getTimestamp() < head.getTimestamp()) {
                        assertThat(changed).as("op %s: add of %s before head %s", op, t, head).isTrue();
                    }
                    assertThat(changed).as("op %s: the flag says whether the head changed", op)
                            .isEqualTo(!queue.peek().equals(head));
                } else if (choice < 85) {
                    TimerHeapInternalTimer<Integer, Long> t;
                    if (!added.isEmpty() && random.nextInt(4) != 0) {
                        int i = random.nextInt(added.size());
                        t = added.get(i);
                        added.set(i, added.get(added.size() - 1));
                        added.remove(added.size() - 1);
                    } else {
                        t = timer(random.nextInt(50_000), random.nextInt(10_000), random.nextInt(3));
                    }
                    boolean changed = queue.remove(t);
                    boolean wasThere = model.remove(t);
                    if (wasThere) {
                        countByTime.merge(t.getTimestamp(), -1, (a, b) -> a + b == 0 ? null : a + b);
                    }
                    assertThat(changed).as("op %s: remove of %s with head %s", op, t, head)
                            .isEqualTo(wasThere && t.equals(head));
                } else {
                    TimerHeapInternalTimer<Integer, Long> polled = queue.poll();
                    if (head == null) {
                        assertThat(polled).isNull();
                    } else {
                        assertThat(polled).as("op %s: poll returns the head", op).isEqualTo(head);
                        assertThat(model.remove(polled)).isTrue();
                        countByTime.merge(polled.getTimestamp(), -1, (a, b) -> a + b == 0 ? null : a + b);
                    }
                }
                TimerHeapInternalTimer<Integer, Long> newHead = queue.peek();
                if (model.isEmpty()) {
                    assertThat(newHead).isNull();
                } else if (newHead == null || newHead.getTimestamp() != countByTime.firstKey()) {
                    throw new AssertionError("op " + op + ": head " + newHead + " but the earliest timer is at "
                            + countByTime.firstKey());
                }
            }
            assertThat(keyGroupsUsed).hasSize(KEY_GROUPS);
            assertThat(queue.size()).isEqualTo(model.size());
            long last = Long.MIN_VALUE;
            int polled = 0;
            TimerHeapInternalTimer<Integer, Long> t;
            while ((t = queue.poll()) != null) {
                assertThat(t.getTimestamp()).isGreaterThanOrEqualTo(last);
                assertThat(model.remove(t)).as("polled %s", t).isTrue();
                last = t.getTimestamp();
                polled++;
            }
            assertThat(model).isEmpty();
            assertThat(polled).isPositive();
        }
    }

    // ------------------------------------------------------------------ snapshots and restore

    /** Fills the states used by the snapshot tests for {@code keys} (which must be in the backend's range). */
    private void fill(KeyedStateBackend<Integer> backend, Iterable<Integer> keys) throws Exception {
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("value"));
        InternalListState<Integer, Long, String> list =
                internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, stringList("list")));
        MapState<Integer, String> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, intStringMap("map"));
        ReducingState<Long> reducing = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sum("sum"));
        AggregatingState<Integer, Double> aggregating =
                backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, average("avg"));
        var queue = timers(backend, "timers");
        for (int key : keys) {
            backend.setCurrentKey(key);
            value.update(key * 10L);
            list.setCurrentNamespace((long) key % 3);
            list.addAll(List.of("a" + key, "b" + key));
            map.put(key, "v" + key);
            map.put(-key - 1, null);
            reducing.add((long) key);
            reducing.add(1L);
            aggregating.add(key);
            queue.add(timer(key * 7L, key, key % 2L));
        }
    }

    /** Checks what {@link #fill} wrote for {@code keys}, and that {@code backend} holds nothing else. */
    private void verify(KeyedStateBackend<Integer> backend, Set<Integer> keys) throws Exception {
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("value"));
        InternalListState<Integer, Long, String> list =
                internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, stringList("list")));
        MapState<Integer, String> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, intStringMap("map"));
        ReducingState<Long> reducing = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sum("sum"));
        AggregatingState<Integer, Double> aggregating =
                backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, average("avg"));
        for (int key : keys) {
            backend.setCurrentKey(key);
            assertThat(value.value()).as("value of key %s", key).isEqualTo(key * 10L);
            list.setCurrentNamespace((long) key % 3);
            assertThat(list(list.get())).as("list of key %s", key).containsExactly("a" + key, "b" + key);
            list.setCurrentNamespace((long) (key + 1) % 3);
            assertThat(list.get()).isEmpty();
            Map<Integer, String> expectedMap = new HashMap<>();
            expectedMap.put(key, "v" + key);
            expectedMap.put(-key - 1, null);
            assertThat(map(map.entries())).as("map of key %s", key).isEqualTo(expectedMap);
            assertThat(reducing.get()).isEqualTo(key + 1L);
            assertThat(aggregating.get()).isEqualTo((double) key);
        }
        assertThat(backend.getKeys("value", VoidNamespace.INSTANCE).collect(Collectors.toSet())).isEqualTo(keys);
        assertThat(backend.getKeys("sum", VoidNamespace.INSTANCE).collect(Collectors.toSet())).isEqualTo(keys);
        Set<TimerHeapInternalTimer<Integer, Long>> expectedTimers = new HashSet<>();
        for (int key : keys) {
            expectedTimers.add(timer(key * 7L, key, key % 2L));
        }
        List<TimerHeapInternalTimer<Integer, Long>> drained = drain(timers(backend, "timers"));
        assertThat(new HashSet<>(drained)).isEqualTo(expectedTimers);
        assertThat(drained).hasSize(keys.size());
        for (int i = 1; i < drained.size(); i++) {
            assertThat(drained.get(i).getTimestamp()).isGreaterThanOrEqualTo(drained.get(i - 1).getTimestamp());
        }
    }

    @Nested
    class SnapshotAndRestore {

        @Test
        void everyStateAndTimerSurvivesARestore() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            Set<Integer> keys = keysIn(ALL, 500);
            fill(backend, keys);
            KeyedStateHandle file = snapshotToFile(backend, ALL);
            KeyedStateHandle memory = snapshotToMemory(backend, ALL);
            verify(restore(ALL, file), keys);
            verify(restore(ALL, memory), keys);
        }

        @Test
        void anEmptyBackendRestoresEmpty() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("value"));
            verify(restore(ALL, snapshotToFile(backend, ALL)), Set.of());
        }

        @Test
        void aSnapshotOfSomeKeyGroupsRestoresExactlyThose() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            fill(backend, keysIn(ALL, 600));
            KeyGroupRange part = KeyGroupRange.of(20, 59);
            KeyedStateHandle handle = snapshotToFile(backend, part);
            assertThat(handle.getKeyGroupRange()).isEqualTo(part);
            verify(restore(part, handle), keysIn(part, 600));
            // a wider backend restored from it holds only those key groups
            verify(restore(ALL, handle), keysIn(part, 600));
        }

        @Test
        void eachSnapshotOfWindowStateShowsTheChangesMadeBeforeIt() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> perWindow = backend.getOrCreateKeyedState(LongSerializer.INSTANCE, longValue("per-window"));
            InternalKvState<Integer, Long, Long> internal = internal(perWindow);
            Map<List<Long>, Long> expected = new HashMap<>();
            for (int key = 0; key < 400; key++) {
                backend.setCurrentKey(key);
                for (long window = 0; window < 5; window++) {
                    internal.setCurrentNamespace(window);
                    perWindow.update(key * 100L + window);
                    expected.put(List.of((long) key, window), key * 100L + window);
                }
            }
            KeyedStateHandle first = snapshotToFile(backend, ALL);
            Map<List<Long>, Long> atFirst = new HashMap<>(expected);
            // windows 0 and 1 fire and are dropped, window 5 opens, window 2 changes
            for (int key = 0; key < 400; key++) {
                backend.setCurrentKey(key);
                for (long window = 0; window < 6; window++) {
                    internal.setCurrentNamespace(window);
                    if (window < 2) {
                        perWindow.clear();
                        expected.remove(List.of((long) key, window));
                    } else if (window == 2 || window == 5) {
                        perWindow.update(-key - window);
                        expected.put(List.of((long) key, window), (long) -key - window);
                    }
                }
            }
            KeyedStateHandle second = snapshotToFile(backend, ALL);
            assertThat(windowState(restore(ALL, first))).isEqualTo(atFirst);
            assertThat(windowState(restore(ALL, second))).isEqualTo(expected);
        }

        /** Every (key, window) -> value of the "per-window" state for keys 0..399 and windows 0..9. */
        private Map<List<Long>, Long> windowState(KeyedStateBackend<Integer> backend) throws Exception {
            ValueState<Long> perWindow = backend.getOrCreateKeyedState(LongSerializer.INSTANCE, longValue("per-window"));
            InternalKvState<Integer, Long, Long> internal = internal(perWindow);
            Map<List<Long>, Long> found = new HashMap<>();
            for (int key = 0; key < 400; key++) {
                backend.setCurrentKey(key);
                for (long window = 0; window < 10; window++) {
                    internal.setCurrentNamespace(window);
                    Long value = perWindow.value();
                    if (value != null) {
                        found.put(List.of((long) key, window), value);
                    }
                }
            }
            return found;
        }

        @Test
        void restoreIntoADifferentParallelism() throws Exception {
            Set<Integer> allKeys = keysIn(ALL, 2000);
            List<KeyedStateHandle> handles = new ArrayList<>();
            for (int subtask = 0; subtask < 2; subtask++) {
                KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(KEY_GROUPS, 2, subtask);
                KeyedStateBackend<Integer> backend = createBackend(IntSerializer.INSTANCE, range, List.of());
                Set<Integer> keys = keysIn(range, 2000);
                fill(backend, keys);
                handles.add(subtask == 0 ? snapshotToFile(backend, range) : snapshotToMemory(backend, range));
            }
            Set<Integer> seen = new HashSet<>();
            for (int subtask = 0; subtask < 3; subtask++) {
                KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(KEY_GROUPS, 3, subtask);
                KeyedStateBackend<Integer> restored = createBackend(IntSerializer.INSTANCE, range, handles);
                Set<Integer> expected = keysIn(range, 2000);
                verify(restored, expected);
                seen.addAll(expected);
            }
            assertThat(seen).isEqualTo(allKeys);
            // and back to one
            List<KeyedStateHandle> threeWay = new ArrayList<>();
            for (int subtask = 0; subtask < 3; subtask++) {
                KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(KEY_GROUPS, 3, subtask);
                KeyedStateBackend<Integer> restored = createBackend(IntSerializer.INSTANCE, range, handles);
                threeWay.add(snapshotToFile(restored, range));
            }
            verify(createBackend(IntSerializer.INSTANCE, ALL, threeWay), allKeys);
        }

        @Test
        void stateRegisteredLateIsRestoredAndNeverLost() throws Exception {
            KeyedStateBackend<Integer> first = createBackend();
            Set<Integer> keys = keysIn(ALL, 300);
            fill(first, keys);
            ValueState<Long> late = first.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("late"));
            for (int key : keys) {
                first.setCurrentKey(key);
                late.update(-key - 1L);
            }
            var lateTimers = timers(first, "late-timers");
            lateTimers.add(timer(5, 1, 0L));

            // the second run registers only "value" and changes it; "late" and the rest stay raw
            KeyedStateBackend<Integer> second = restore(ALL, snapshotToFile(first, ALL));
            ValueState<Long> value = second.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("value"));
            for (int key : keys) {
                second.setCurrentKey(key);
                value.update(value.value() + 1);
            }
            KeyedStateHandle secondSnapshot = snapshotToFile(second, ALL);

            KeyedStateBackend<Integer> third = restore(ALL, secondSnapshot);
            ValueState<Long> value3 = third.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("value"));
            ValueState<Long> late3 = third.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("late"));
            for (int key : keys) {
                third.setCurrentKey(key);
                assertThat(value3.value()).isEqualTo(key * 10L + 1);
                assertThat(late3.value()).isEqualTo(-key - 1L);
            }
            assertThat(drain(timers(third, "late-timers"))).containsExactly(timer(5, 1, 0L));
            // and the untouched states too, after the third run registered them late
            ReducingState<Long> reducing = third.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sum("sum"));
            third.setCurrentKey(7);
            assertThat(reducing.get()).isEqualTo(8L);
        }

        @Test
        void restoringWithAnotherSerializerFailsNamingBoth() throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("typed"));
            backend.setCurrentKey(1);
            value.update(1L);
            KeyedStateBackend<Integer> restored = restore(ALL, snapshotToFile(backend, ALL));
            assertThatThrownBy(() -> restored.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("typed", StringSerializer.INSTANCE)))
                    .satisfies(e -> assertThat(messages(e)).contains("'typed'")
                            .contains(LongSerializer.class.getName())
                            .contains(StringSerializer.class.getName()));
        }

        /** One key in one key group with a section of state "precious"; returns the snapshot and that key group. */
        private KeyGroupsStateHandle singleKeySnapshot(int key) throws Exception {
            KeyedStateBackend<Integer> backend = createBackend();
            ValueState<String> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("precious", StringSerializer.INSTANCE));
            backend.setCurrentKey(key);
            state.update("a value long enough to damage in the middle");
            return snapshotToMemory(backend, ALL);
        }

        private void assertRestoreFailsNaming(KeyedStateHandle damaged, int keyGroup) {
            assertThatThrownBy(() -> {
                KeyedStateBackend<Integer> restored = restore(ALL, damaged);
                ValueState<String> state = restored.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                        new ValueStateDescriptor<>("precious", StringSerializer.INSTANCE));
                restored.setCurrentKey(keyIn(KeyGroupRange.of(keyGroup, keyGroup), 0));
                state.value();
            }).satisfies(e -> {
                String messages = messages(e);
                assertThat(messages).contains("'precious'").contains("key group " + keyGroup);
                boolean hasIoException = false;
                for (Throwable c = e; c != null; c = c.getCause()) {
                    hasIoException |= c instanceof IOException;
                }
                assertThat(hasIoException).as("an IOException in %s", messages).isTrue();
            });
        }

        @Test
        void aCorruptSnapshotFailsNamingStateAndKeyGroup() throws Exception {
            int key = keyIn(KeyGroupRange.of(40, 100), 0);
            int keyGroup = keyGroupOf(key);
            KeyGroupsStateHandle snapshot = singleKeySnapshot(key);
            KeyGroupRangeOffsets offsets = snapshot.getKeyGroupRangeOffsets();
            byte[] bytes = ((ByteStreamStateHandle) snapshot.getDelegateStateHandle()).getData().clone();
            // the last byte of the key group's block is the last byte of its only section
            int end = (int) offsets.getKeyGroupOffset(keyGroup + 1);
            bytes[end - 3] ^= 0x10;
            assertRestoreFailsNaming(KeyGroupsStateHandle.inMemory("flipped", bytes, offsets), keyGroup);
        }

        @Test
        void aTruncatedSnapshotFailsNamingStateAndKeyGroup() throws Exception {
            int key = keyIn(KeyGroupRange.of(40, 100), 0);
            int keyGroup = keyGroupOf(key);
            KeyGroupsStateHandle snapshot = singleKeySnapshot(key);
            KeyGroupRangeOffsets offsets = snapshot.getKeyGroupRangeOffsets();
            int start = (int) offsets.getKeyGroupOffset(keyGroup);
            // block: int key group, varint 1 section; section: varint state 0, varint 1 entry, int length,
            // int crc, then the entry bytes; cut inside the entry bytes
            int cut = start + 4 + 1 + 1 + 1 + 4 + 4 + 5;
            assertThat(ByteBuffer.wrap(((ByteStreamStateHandle) snapshot.getDelegateStateHandle()).getData(), start, 4).getInt()).isEqualTo(keyGroup);
            byte[] truncated = Arrays.copyOf(((ByteStreamStateHandle) snapshot.getDelegateStateHandle()).getData(), cut);
            assertRestoreFailsNaming(KeyGroupsStateHandle.inMemory("truncated", truncated, offsets), keyGroup);
        }
    }
}
