package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.FunctionInitializationContext;
import dev.runnel.runtime.state.FunctionSnapshotContext;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendFactory;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.streaming.api.checkpoint.CheckpointedFunction;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.operators.KeyedProcessOperator;
import dev.runnel.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import dev.runnel.util.Collector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Redistributed state restored into real stores: subtasks of a keyed operator with keyed state and an
 * operator list state snapshot at one parallelism; {@link StateAssignmentOperation} cuts the snapshots up
 * for another; new subtasks restore their parts. Every key must come back exactly once, in the subtask that
 * owns its key group, with its value, and every list element exactly once, split as the round-robin rule
 * says. On the heap store and RocksDB (canonical and incremental snapshots).
 */
class StateAssignmentRestoreTest {

    private static final int MAX_PARALLELISM = 128;
    private static final int KEYS = 400;

    static Stream<Arguments> cases() {
        List<Arguments> cases = new ArrayList<>();
        for (String backend : List.of("hashmap", "rocksdb", "rocksdb-incremental")) {
            for (int[] p : new int[][] {{4, 2}, {4, 7}, {7, 4}, {1, 3}}) {
                cases.add(Arguments.of(backend, p[0], p[1]));
            }
        }
        return cases.stream();
    }

    private static StateBackend backend(String name) {
        Configuration conf = new Configuration();
        conf.setString("state.backend.incremental", Boolean.toString(name.endsWith("-incremental")));
        String type = name.replace("-incremental", "");
        for (StateBackendFactory factory : ServiceLoader.load(StateBackendFactory.class)) {
            if (factory.name().equals(type) || (type.equals("hashmap") && factory.name().equals("heap"))) {
                return factory.createFromConfig(conf);
            }
        }
        throw new IllegalStateException("no store " + name + " on the classpath");
    }

    private static String key(int n) {
        return "k" + n;
    }

    private static int timesSeen(int n) {
        return n % 3 + 1;
    }

    @ParameterizedTest(name = "{0} {1} -> {2}")
    @MethodSource("cases")
    void everyKeyAndElementRestoresExactlyOnceWhereItBelongs(String backendName, int oldP, int newP) throws Exception {
        StateBackend backend = backend(backendName);
        Map<Integer, OperatorSubtaskState> snapshots = new HashMap<>();
        List<String> allMarkers = new ArrayList<>();
        for (int s = 0; s < oldP; s++) {
            Counter counter = new Counter();
            try (var harness = harness(counter, oldP, s, backend)) {
                harness.open();
                for (int n = 0; n < KEYS; n++) {
                    if (KeyGroupRangeAssignment.assignKeyToParallelOperator(key(n), MAX_PARALLELISM, oldP) == s) {
                        for (int t = 0; t < timesSeen(n); t++) {
                            harness.processElement(key(n), 0);
                        }
                    }
                }
                for (int j = 0; j < s + 2; j++) { // old subtasks hold different numbers of elements
                    counter.markers.add("m" + s + "-" + j);
                    allMarkers.add("m" + s + "-" + j);
                }
                OperatorSubtaskState snapshot = harness.snapshot(1, 1);
                assertThat(snapshot.managedKeyedState()).isNotEmpty().allSatisfy(h -> assertThat(h).isInstanceOf(
                        backendName.endsWith("-incremental") ? IncrementalRemoteKeyedStateHandle.class
                                : KeyGroupsStateHandle.class));
                snapshots.put(s, snapshot);
            }
        }
        OperatorState old = new OperatorState("counter", oldP, MAX_PARALLELISM, snapshots, null);

        OperatorState assigned = StateAssignmentOperation.redistribute(old, newP, MAX_PARALLELISM);

        Set<String> restoredKeys = new HashSet<>();
        List<String> restoredMarkers = new ArrayList<>();
        for (int i = 0; i < newP; i++) {
            Counter counter = new Counter();
            try (var harness = harness(counter, newP, i, backend)) {
                harness.initializeState(assigned.getState(i), 1);
                harness.open();
                List<String> keys;
                try (Stream<String> held = harness.<String>getKeyedStateBackend().getKeys("count", VoidNamespace.INSTANCE)) {
                    keys = held.toList();
                }
                for (String k : keys) {
                    assertThat(KeyGroupRangeAssignment.assignKeyToParallelOperator(k, MAX_PARALLELISM, newP))
                            .as("owner of restored key %s", k).isEqualTo(i);
                    assertThat(restoredKeys.add(k)).as("key %s restored twice", k).isTrue();
                }
                // the values came along: one more record per key continues its count
                List<String> expected = new ArrayList<>();
                for (String k : keys) {
                    harness.processElement(k, 0);
                    expected.add(k + "=" + (timesSeen(Integer.parseInt(k.substring(1))) + 1));
                }
                assertThat(harness.extractOutputValues()).containsExactlyElementsOf(expected);
                int total = allMarkers.size();
                assertThat(counter.restoredMarkers).as("list elements of new subtask %s", i)
                        .hasSize(total / newP + (i < total % newP ? 1 : 0));
                restoredMarkers.addAll(counter.restoredMarkers);
            }
        }
        assertThat(restoredKeys).hasSize(KEYS);
        assertThat(restoredMarkers).containsExactlyElementsOf(allMarkers);
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, String, String> harness(Counter counter,
            int parallelism, int subtask, StateBackend backend) {
        return new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(counter), (String s) -> s,
                Types.STRING, MAX_PARALLELISM, parallelism, subtask, backend);
    }

    /** Counts per key in keyed state; keeps markers in an operator list state. */
    static final class Counter extends KeyedProcessFunction<String, String, String> implements CheckpointedFunction {
        final List<String> markers = new ArrayList<>();
        final List<String> restoredMarkers = new ArrayList<>();
        private transient ListState<String> markerState;
        private transient ValueState<Integer> count;

        @Override
        public void initializeState(FunctionInitializationContext context) throws Exception {
            markerState = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("markers", Types.STRING));
            for (String marker : markerState.get()) {
                restoredMarkers.add(marker);
            }
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) throws Exception {
            markerState.update(markers);
        }

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.INT));
        }

        @Override
        public void processElement(String value, Context ctx, Collector<String> out) throws Exception {
            int next = count.value() == null ? 1 : count.value() + 1;
            count.update(next);
            out.collect(value + "=" + next);
        }
    }
}
