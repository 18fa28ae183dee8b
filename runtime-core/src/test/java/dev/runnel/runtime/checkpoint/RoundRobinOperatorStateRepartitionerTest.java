package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle.Mode;
import dev.runnel.runtime.state.OperatorStateHandle.StateMetaInfo;
import dev.runnel.runtime.state.OperatorStreamStateHandle;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The operator-state redistribution, on offsets only: old subtask {@code s}'s element {@code j} sits at
 * offset {@code 1000 s + j} of blob {@code s}, so every assertion can say which element went where and that it
 * is read from the blob it was written to.
 */
class RoundRobinOperatorStateRepartitionerTest {

    private static final OperatorStateRepartitioner REPARTITIONER = RoundRobinOperatorStateRepartitioner.INSTANCE;

    /** Blob of old subtask {@code s}. */
    private static StreamStateHandle blob(int subtask) {
        return new ByteStreamStateHandle("subtask-" + subtask, new byte[] {(byte) subtask});
    }

    private static long[] elements(int subtask, int count) {
        return LongStream.range(0, count).map(j -> 1000L * subtask + j).toArray();
    }

    /** Old subtask states with one state {@code name} of {@code mode}, {@code counts[s]} elements in subtask s. */
    private static List<List<OperatorStateHandle>> oldState(String name, Mode mode, int... counts) {
        List<List<OperatorStateHandle>> old = new ArrayList<>();
        for (int s = 0; s < counts.length; s++) {
            old.add(List.of(new OperatorStreamStateHandle(Map.of(name, new StateMetaInfo(elements(s, counts[s]), mode)),
                    blob(s))));
        }
        return old;
    }

    /** The elements state {@code name} restores in a new subtask, in restore order; checks each blob. */
    private static List<Long> restored(List<OperatorStateHandle> handles, String name) {
        List<Long> result = new ArrayList<>();
        for (OperatorStateHandle handle : handles) {
            StateMetaInfo info = handle.getStateNameToPartitionOffsets().get(name);
            if (info == null) {
                continue;
            }
            for (long offset : info.offsets()) {
                assertThat(handle.getDelegateStateHandle()).as("blob of element %s", offset).isEqualTo(blob((int) (offset / 1000)));
                result.add(offset);
            }
        }
        return result;
    }

    private static List<List<Long>> restoredAll(List<List<OperatorStateHandle>> assigned, String name) {
        return assigned.stream().map(h -> restored(h, name)).toList();
    }

    @Test
    void listStateIsSplitInContiguousRunsTheFirstOnesOneLonger() {
        // The worked example of the class comment: 5 + 3 + 2 elements from 3 subtasks to 4.
        var assigned = REPARTITIONER.repartitionState(oldState("s", Mode.SPLIT_DISTRIBUTE, 5, 3, 2), 3, 4);
        assertThat(restoredAll(assigned, "s")).containsExactly(
                List.of(0L, 1L, 2L),
                List.of(3L, 4L, 1000L),
                List.of(1001L, 1002L),
                List.of(2000L, 2001L));
        // new subtask 1 reads two blobs: one handle for each
        assertThat(assigned.get(1)).hasSize(2);
    }

    @Test
    void listStateCountsAreAsEvenAsPossible() {
        for (int oldP = 1; oldP <= 6; oldP++) {
            for (int newP = 1; newP <= 9; newP++) {
                int[] counts = new int[oldP];
                for (int s = 0; s < oldP; s++) {
                    counts[s] = (s * 7 + 3) % 5; // some subtasks with none
                }
                int total = java.util.Arrays.stream(counts).sum();
                var old = oldState("s", Mode.SPLIT_DISTRIBUTE, counts);
                var assigned = REPARTITIONER.repartitionState(old, oldP, newP);
                if (oldP == newP) {
                    assertThat(assigned).as("unchanged parallelism: in place").isSameAs(old);
                    continue;
                }
                List<Long> all = new ArrayList<>();
                for (int i = 0; i < newP; i++) {
                    List<Long> mine = restored(assigned.get(i), "s");
                    // the first total mod newP subtasks get one more
                    assertThat(mine).as("%s -> %s, subtask %s", oldP, newP, i)
                            .hasSize(total / newP + (i < total % newP ? 1 : 0));
                    all.addAll(mine);
                }
                // every element exactly once, in old-subtask order
                List<Long> expected = new ArrayList<>();
                for (int s = 0; s < oldP; s++) {
                    for (long e : elements(s, counts[s])) {
                        expected.add(e);
                    }
                }
                assertThat(all).isEqualTo(expected);
            }
        }
    }

    @Test
    void theNextListStateStartsItsRoundWhereTheExtraElementsEnded() {
        // "a" then "b": the order a HashMap of the two names has, and Flink's repartitioner walks.
        assertThat(new ArrayList<>(new HashMap<>(Map.of("b", 0, "a", 0)).keySet())).containsExactly("a", "b");
        List<List<OperatorStateHandle>> old = new ArrayList<>();
        int[] a = {5, 3, 2};
        int[] b = {2, 2, 1};
        for (int s = 0; s < 3; s++) {
            long[] bElements = LongStream.of(elements(s, a[s] + b[s])).skip(a[s]).toArray();
            old.add(List.of(new OperatorStreamStateHandle(Map.of(
                    "a", new StateMetaInfo(elements(s, a[s]), Mode.SPLIT_DISTRIBUTE),
                    "b", new StateMetaInfo(bElements, Mode.SPLIT_DISTRIBUTE)), blob(s))));
        }
        var assigned = REPARTITIONER.repartitionState(old, 3, 4);
        assertThat(restoredAll(assigned, "a")).containsExactly(
                List.of(0L, 1L, 2L), List.of(3L, 4L, 1000L), List.of(1001L, 1002L), List.of(2000L, 2001L));
        // b: 5 elements, 10 mod 4 = 2 → its round starts at new subtask 2, which gets the one extra element
        assertThat(restoredAll(assigned, "b")).containsExactly(
                List.of(1004L), List.of(2002L), List.of(5L, 6L), List.of(1003L));
        // one handle per blob a subtask reads, with both states in it
        assertThat(assigned.get(0)).hasSize(2);
        assertThat(assigned.get(0).get(0).getStateNameToPartitionOffsets()).containsOnlyKeys("a");
        assertThat(assigned.get(0).get(1).getStateNameToPartitionOffsets()).containsOnlyKeys("b");
        assertThat(assigned.get(2)).hasSize(2);
        assertThat(assigned.get(2).get(0).getStateNameToPartitionOffsets()).containsOnlyKeys("b");
    }

    @Test
    void unionStateGoesWholeToEverySubtaskAlsoAtTheSameParallelism() {
        List<Long> all = List.of(0L, 1L, 1000L, 2000L, 2001L, 2002L);
        for (int newP : new int[] {1, 2, 3, 5}) {
            var assigned = REPARTITIONER.repartitionState(oldState("u", Mode.UNION, 2, 1, 3), 3, newP);
            assertThat(assigned).hasSize(newP);
            assertThat(restoredAll(assigned, "u")).allSatisfy(elements -> assertThat(elements).isEqualTo(all));
        }
    }

    @Test
    void broadcastStateGivesNewSubtaskIOldSubtaskIModP() {
        var old = oldState("b", Mode.BROADCAST, 1, 1, 1);
        var assigned = REPARTITIONER.repartitionState(old, 3, 5);
        assertThat(restoredAll(assigned, "b")).containsExactly(
                List.of(0L), List.of(1000L), List.of(2000L), List.of(0L), List.of(1000L));
        assertThat(restoredAll(REPARTITIONER.repartitionState(old, 3, 2), "b"))
                .containsExactly(List.of(0L), List.of(1000L));
    }

    @Test
    void broadcastStateSomeSubtaskLacksIsHandedRoundAtTheSameParallelism() {
        var old = new ArrayList<>(oldState("b", Mode.BROADCAST, 1, 1, 1));
        old.set(1, List.of()); // subtask 1 finished before the checkpoint
        var assigned = REPARTITIONER.repartitionState(old, 3, 3);
        assertThat(restoredAll(assigned, "b")).containsExactly(List.of(0L), List.of(2000L), List.of(0L));
    }

    @Test
    void unchangedParallelismWithoutUnionStateReturnsTheArgument() {
        List<List<OperatorStateHandle>> old = new ArrayList<>(oldState("s", Mode.SPLIT_DISTRIBUTE, 4, 0, 2));
        old.set(1, List.of());
        assertThat(REPARTITIONER.repartitionState(old, 3, 3)).isSameAs(old);
    }

    @Test
    void unchangedParallelismKeepsListStateInPlaceWhileUnionStateMoves() {
        List<List<OperatorStateHandle>> old = new ArrayList<>();
        for (int s = 0; s < 2; s++) {
            long[] both = elements(s, 4);
            old.add(List.of(new OperatorStreamStateHandle(Map.of(
                    "list", new StateMetaInfo(new long[] {both[0], both[1], both[2]}, Mode.SPLIT_DISTRIBUTE),
                    "union", new StateMetaInfo(new long[] {both[3]}, Mode.UNION)), blob(s))));
        }
        var assigned = REPARTITIONER.repartitionState(old, 2, 2);
        assertThat(restoredAll(assigned, "list")).containsExactly(List.of(0L, 1L, 2L), List.of(1000L, 1001L, 1002L));
        assertThat(restoredAll(assigned, "union")).containsExactly(List.of(3L, 1003L), List.of(3L, 1003L));
    }

    @Test
    void oneNameInTwoModesIsRefused() {
        var old = List.of(
                oldState("x", Mode.SPLIT_DISTRIBUTE, 1).get(0),
                List.<OperatorStateHandle>of(new OperatorStreamStateHandle(
                        Map.of("x", new StateMetaInfo(elements(1, 1), Mode.UNION)), blob(1))));
        assertThatThrownBy(() -> REPARTITIONER.repartitionState(old, 2, 3))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("operator state 'x' is SPLIT_DISTRIBUTE in old subtask 0 but UNION in old subtask 1");
    }

    @Test
    void aHandleOfAnotherKindIsRefused() {
        OperatorStateHandle foreign = new OperatorStateHandle() {
            @Override
            public Map<String, StateMetaInfo> getStateNameToPartitionOffsets() {
                return Map.of("x", new StateMetaInfo(new long[] {0}, Mode.SPLIT_DISTRIBUTE));
            }

            @Override
            public StreamStateHandle getDelegateStateHandle() {
                return blob(0);
            }
        };
        assertThatThrownBy(() -> REPARTITIONER.repartitionState(List.of(List.of(foreign)), 1, 2))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("only OperatorStreamStateHandle");
    }

    @Test
    void theListMustHaveOneEntryPerOldSubtask() {
        assertThatThrownBy(() -> REPARTITIONER.repartitionState(oldState("s", Mode.SPLIT_DISTRIBUTE, 1, 1), 3, 2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("expected the operator state of 3 old subtasks, got 2");
    }
}
