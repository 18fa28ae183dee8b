package dev.runnel.streaming.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.streaming.api.operators.KeyedProcessOperator;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Rescaling in the harness as a Flink test does it: snapshots of two instances merged with
 * {@code repackageState}, cut up for three with {@code repartitionOperatorState}, restored into three.
 */
class HarnessRescaleTest {

    private static final int MAX_PARALLELISM = 128;

    private static KeyedOneInputStreamOperatorTestHarness<String, String, String> counter(int parallelism,
            int subtask) {
        return new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new HarnessCheckpointTest.Count()),
                (String s) -> s, Types.STRING, MAX_PARALLELISM, parallelism, subtask);
    }

    private static int owner(String key, int parallelism) {
        return KeyGroupRangeAssignment.assignKeyToParallelOperator(key, MAX_PARALLELISM, parallelism);
    }

    @Test
    void keyedStateOfTwoInstancesSplitsIntoThree() throws Exception {
        List<String> keys = new ArrayList<>();
        for (char c = 'a'; c <= 'z'; c++) {
            keys.add(String.valueOf(c));
        }
        OperatorSubtaskState[] snapshots = new OperatorSubtaskState[2];
        for (int s = 0; s < 2; s++) {
            try (var harness = counter(2, s)) {
                harness.open();
                for (String key : keys) {
                    if (owner(key, 2) == s) {
                        harness.processElement(key, 0);
                        harness.processElement(key, 0);
                    }
                }
                snapshots[s] = harness.snapshot(1, 1);
            }
        }
        OperatorSubtaskState merged = AbstractStreamOperatorTestHarness.repackageState(snapshots);
        assertThat(merged.managedKeyedState()).hasSize(2);

        List<String> seen = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            int subtask = i;
            try (var harness = counter(3, i)) {
                harness.initializeState(AbstractStreamOperatorTestHarness.repartitionOperatorState(merged,
                        MAX_PARALLELISM, 2, 3, i));
                harness.open();
                // only the keys of this subtask's key groups came back, each with its count of 2
                assertThat(harness.numKeyedStateEntries()).isEqualTo(
                        (int) keys.stream().filter(k -> owner(k, 3) == subtask).count());
                for (String key : keys) {
                    if (owner(key, 3) == i) {
                        harness.processElement(key, 0);
                        seen.add(key);
                    }
                }
                assertThat(harness.extractOutputValues()).allSatisfy(v -> assertThat(v).endsWith("=3"));
            }
        }
        assertThat(seen).containsExactlyInAnyOrderElementsOf(keys);
    }

    @Test
    void repackagingOneOrNoSnapshotIsWhatFlinksHarnessReturns() {
        OperatorSubtaskState one = OperatorSubtaskState.EMPTY;
        assertThat(AbstractStreamOperatorTestHarness.repackageState(one)).isSameAs(one);
        assertThat(AbstractStreamOperatorTestHarness.repackageState()).isNull();
        assertThatThrownBy(() -> AbstractStreamOperatorTestHarness.repartitionOperatorState(one, 128, 2, 3, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a subtask of parallelism 3");
    }
}
