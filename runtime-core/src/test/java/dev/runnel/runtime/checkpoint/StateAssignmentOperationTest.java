package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle.Mode;
import dev.runnel.runtime.state.OperatorStateHandle.StateMetaInfo;
import dev.runnel.runtime.state.OperatorStreamStateHandle;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Key-group ranges and handle narrowing of the state redistribution, on handles whose offsets encode their key
 * group ({@code 100 * kg}), so each assertion can tell which key group a new subtask would read. Restores into
 * real stores are in runtime-graph ({@code StateAssignmentRestoreTest}).
 */
class StateAssignmentOperationTest {

    /** A canonical snapshot of old subtask {@code subtask} of {@code parallelism}: key group kg at offset 100 kg. */
    private static KeyGroupsStateHandle canonical(int maxParallelism, int parallelism, int subtask) {
        KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism,
                subtask);
        KeyGroupRangeOffsets offsets = new KeyGroupRangeOffsets(range);
        for (int kg : range) {
            offsets.setKeyGroupOffset(kg, 100L * kg);
        }
        return KeyGroupsStateHandle.inMemory("old-" + subtask, new byte[] {(byte) subtask}, offsets);
    }

    private static OperatorState keyedState(int maxParallelism, int parallelism) {
        Map<Integer, OperatorSubtaskState> subtasks = new HashMap<>();
        for (int s = 0; s < parallelism; s++) {
            subtasks.put(s, new OperatorSubtaskState(List.of(canonical(maxParallelism, parallelism, s)), List.of()));
        }
        return new OperatorState("op", parallelism, maxParallelism, subtasks, null);
    }

    @ParameterizedTest(name = "{0} -> {1}, max parallelism {2}")
    @CsvSource({"4, 2, 128", "4, 7, 128", "7, 4, 128", "1, 3, 128", "3, 1, 128", "5, 5, 128", "4, 3, 8", "2, 9, 9",
        "10, 4, 37"})
    void everyKeyGroupGoesToExactlyTheSubtaskThatOwnsItAndIsReadFromItsOldBlob(int oldP, int newP, int maxP) {
        OperatorState old = keyedState(maxP, oldP);
        OperatorState assigned = StateAssignmentOperation.redistribute(old, newP, maxP);

        assertThat(assigned.getParallelism()).isEqualTo(newP);
        assertThat(assigned.getMaxParallelism()).isEqualTo(maxP);
        int[] readBy = new int[maxP];
        java.util.Arrays.fill(readBy, -1);
        for (int i = 0; i < newP; i++) {
            KeyGroupRange owned = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(maxP, newP, i);
            for (KeyedStateHandle handle : assigned.getState(i).managedKeyedState()) {
                KeyGroupsStateHandle canonical = (KeyGroupsStateHandle) handle;
                // narrowed: the handle names only key groups the new subtask owns...
                assertThat(owned.getIntersection(handle.getKeyGroupRange())).isEqualTo(handle.getKeyGroupRange());
                for (int kg : handle.getKeyGroupRange()) {
                    assertThat(readBy[kg]).as("key group %s read twice", kg).isEqualTo(-1);
                    readBy[kg] = i;
                    // ...at their old offsets, in the blob of the old subtask that wrote them
                    assertThat(canonical.getKeyGroupRangeOffsets().getKeyGroupOffset(kg)).isEqualTo(100L * kg);
                    int writer = KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(maxP, oldP, kg);
                    assertThat(canonical.getDelegateStateHandle()).isEqualTo(canonical(maxP, oldP, writer)
                            .getDelegateStateHandle());
                }
            }
        }
        for (int kg = 0; kg < maxP; kg++) {
            assertThat(readBy[kg]).as("owner of key group %s", kg)
                    .isEqualTo(KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(maxP, newP, kg));
        }
    }

    @Test
    void theWorkedExampleOfTheClassComment() {
        OperatorState assigned = StateAssignmentOperation.redistribute(keyedState(8, 4), 3, 8);
        assertThat(ranges(assigned.getState(0))).containsExactly(KeyGroupRange.of(0, 1), KeyGroupRange.of(2, 2));
        assertThat(ranges(assigned.getState(1))).containsExactly(KeyGroupRange.of(3, 3), KeyGroupRange.of(4, 5));
        assertThat(ranges(assigned.getState(2))).containsExactly(KeyGroupRange.of(6, 7));
    }

    private static List<KeyGroupRange> ranges(OperatorSubtaskState state) {
        return state.managedKeyedState().stream().map(KeyedStateHandle::getKeyGroupRange).toList();
    }

    @Test
    void aHandleInsideTheRangeIsPassedAsItIs() {
        KeyGroupsStateHandle handle = canonical(128, 4, 1);
        assertThat(StateAssignmentOperation.getIntersection(handle, KeyGroupRange.of(0, 127))).isSameAs(handle);
        assertThat(StateAssignmentOperation.getIntersection(handle, KeyGroupRange.of(0, 31))).isNull();
    }

    @Test
    void incrementalHandlesArePassedWholeToEverySubtaskTheyIntersect() {
        List<IncrementalRemoteKeyedStateHandle> handles = new ArrayList<>();
        Map<Integer, OperatorSubtaskState> subtasks = new HashMap<>();
        for (int s = 0; s < 2; s++) {
            IncrementalRemoteKeyedStateHandle handle = new IncrementalRemoteKeyedStateHandle(UUID.randomUUID(),
                    KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(128, 2, s), 7, List.of(), List.of(),
                    new ByteStreamStateHandle("meta-" + s, new byte[] {1}));
            handles.add(handle);
            subtasks.put(s, new OperatorSubtaskState(List.of(handle), List.of()));
        }
        OperatorState assigned = StateAssignmentOperation.redistribute(new OperatorState("op", 2, 128, subtasks, null),
                3, 128);
        // new ranges 0-42, 43-85, 86-127 against old 0-63, 64-127
        assertThat(assigned.getState(0).managedKeyedState()).containsExactly(handles.get(0));
        assertThat(assigned.getState(1).managedKeyedState()).containsExactly(handles.get(0), handles.get(1));
        assertThat(assigned.getState(2).managedKeyedState()).containsExactly(handles.get(1));
        assertThat(assigned.getState(1).managedKeyedState().get(0)).isSameAs(handles.get(0));
    }

    @Test
    void unchangedParallelismReturnsTheStateItself() {
        OperatorState old = keyedState(128, 3);
        assertThat(StateAssignmentOperation.redistribute(old, 3, 128)).isSameAs(old);
    }

    @Test
    void unionStateMovesAtTheSameParallelismWhileKeyedStateStays() {
        Map<Integer, OperatorSubtaskState> subtasks = new HashMap<>();
        for (int s = 0; s < 2; s++) {
            OperatorStateHandle union = new OperatorStreamStateHandle(
                    Map.of("u", new StateMetaInfo(new long[] {s}, Mode.UNION)),
                    new ByteStreamStateHandle("ops-" + s, new byte[] {(byte) s}));
            subtasks.put(s, new OperatorSubtaskState(List.of(canonical(128, 2, s)), List.of(union)));
        }
        OperatorState old = new OperatorState("op", 2, 128, subtasks, null);
        OperatorState assigned = StateAssignmentOperation.redistribute(old, 2, 128);
        for (int s = 0; s < 2; s++) {
            assertThat(assigned.getState(s).managedKeyedState()).isEqualTo(old.getState(s).managedKeyedState());
            assertThat(assigned.getState(s).managedOperatorState()).hasSize(2);
        }
    }

    @Test
    void coordinatorStateAndOperatorIdAreCarriedOver() {
        ByteStreamStateHandle enumerator = new ByteStreamStateHandle("enumerator", new byte[] {9});
        OperatorState old = new OperatorState("source", 2, 128, Map.of(), enumerator);
        OperatorState assigned = StateAssignmentOperation.redistribute(old, 5, 128);
        assertThat(assigned.getOperatorID()).isEqualTo("source");
        assertThat(assigned.getCoordinatorState()).isSameAs(enumerator);
        assertThat(assigned.getParallelism()).isEqualTo(5);
        assertThat(assigned.getSubtaskStates()).isEmpty();
    }

    @Test
    void aChangedMaxParallelismWithKeyedStateIsRefusedNamingTheOperatorAndBothValues() {
        assertThatThrownBy(() -> StateAssignmentOperation.redistribute(keyedState(128, 2), 2, 256))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Operator op")
                .hasMessageContaining("max parallelism 128")
                .hasMessageContaining("max parallelism 256")
                .hasMessageContaining("back to 128");
    }

    @Test
    void aChangedMaxParallelismWithoutKeyedStateIsFine() {
        OperatorState old = new OperatorState("op", 2, 128, Map.of(), null);
        assertThat(StateAssignmentOperation.redistribute(old, 3, 256).getMaxParallelism()).isEqualTo(256);
    }

    @Test
    void aParallelismAboveTheMaxParallelismIsRefused() {
        assertThatThrownBy(() -> StateAssignmentOperation.redistribute(keyedState(8, 2), 9, 8))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Operator op cannot be restored at parallelism 9")
                .hasMessageContaining("max parallelism 8");
    }

    @Test
    void operatorStateErrorsNameTheOperator() {
        Map<Integer, OperatorSubtaskState> subtasks = new HashMap<>();
        for (int s = 0; s < 2; s++) {
            Mode mode = s == 0 ? Mode.SPLIT_DISTRIBUTE : Mode.BROADCAST;
            subtasks.put(s, new OperatorSubtaskState(List.of(), List.of(new OperatorStreamStateHandle(
                    Map.of("x", new StateMetaInfo(new long[] {0}, mode)), new ByteStreamStateHandle("b" + s, new byte[1])))));
        }
        assertThatThrownBy(() -> StateAssignmentOperation.redistribute(new OperatorState("op-7", 2, 128, subtasks, null),
                3, 128))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Operator op-7: operator state 'x' is SPLIT_DISTRIBUTE in old subtask 0 but"
                        + " BROADCAST in old subtask 1");
    }

    @Test
    void keyGroupPartitionsCoverEveryKeyGroupOnce() {
        for (int p = 1; p <= 20; p++) {
            List<KeyGroupRange> ranges = StateAssignmentOperation.createKeyGroupPartitions(64, p);
            assertThat(ranges).hasSize(p);
            int next = 0;
            for (KeyGroupRange range : ranges) {
                assertThat(range.getStartKeyGroup()).isEqualTo(next);
                next = range.getEndKeyGroup() + 1;
            }
            assertThat(next).isEqualTo(64);
        }
    }

    @org.junit.jupiter.api.Test
    void inFlightRecordsStayWithTheirSubtaskAtTheSameParallelismAndNeedTheEdgesAtAnother() {
        dev.runnel.runtime.state.InputChannelStateHandle channel = channel("e0", 1);
        OperatorState state = new OperatorState("op", 2, 128, Map.of(1,
                new OperatorSubtaskState(List.of(), List.of(), List.of(channel))), null);
        assertThatThrownBy(() -> StateAssignmentOperation.redistribute(state, 3, 128))
                .hasMessageContaining("Operator op").hasMessageContaining("unaligned checkpoint")
                .hasMessageContaining("savepoint");
        OperatorState same = StateAssignmentOperation.redistribute(state, 2, 128);
        assertThat(same.getState(1).inputChannelState()).containsExactly(channel);
        OperatorState sameWithEdges = StateAssignmentOperation.redistribute(state, 2, 128,
                id -> edge(dev.runnel.runtime.rescale.SubtaskStateMapper.UNSUPPORTED, 2));
        assertThat(sameWithEdges.getState(1).inputChannelState()).containsExactly(channel);
    }

    @ParameterizedTest(name = "{0} 3 -> {1}")
    @CsvSource({
        // old subtask 0, 1, 2 each hold one handle; expected: for each new subtask, the old subtasks it reads
        "RANGE, 2, '0 1|1 2'",
        "RANGE, 4, '0|0 1|1 2|2'",
        "ROUND_ROBIN, 2, '0 2|1'",
        "ROUND_ROBIN, 4, '0|1|2|'",
        "ARBITRARY, 2, '0 2|1'",
        "FULL, 2, '0 1 2|0 1 2'",
        "FIRST, 2, '0 1 2|'"})
    void inFlightRecordsMoveByTheDownstreamMapperOfTheirEdge(String mapper, int newParallelism, String expected) {
        Map<Integer, OperatorSubtaskState> subtasks = new HashMap<>();
        for (int old = 0; old < 3; old++) {
            subtasks.put(old, new OperatorSubtaskState(List.of(), List.of(), List.of(channel("e0", old))));
        }
        OperatorState state = new OperatorState("op", 3, 128, subtasks, null);
        OperatorState assigned = StateAssignmentOperation.redistribute(state, newParallelism, 128,
                id -> id.equals("e0") ? edge(dev.runnel.runtime.rescale.SubtaskStateMapper.valueOf(mapper), 3) : null);
        String[] perSubtask = expected.split("\\|", -1);
        for (int subtask = 0; subtask < newParallelism; subtask++) {
            List<Integer> producers = assigned.getState(subtask).inputChannelState().stream()
                    .map(dev.runnel.runtime.state.InputChannelStateHandle::producerSubtask).toList();
            List<Integer> want = perSubtask[subtask].isBlank() ? List.of()
                    : java.util.Arrays.stream(perSubtask[subtask].trim().split(" ")).map(Integer::valueOf).toList();
            assertThat(producers).as("new subtask %s", subtask).isEqualTo(want);
        }
    }

    @Test
    void inFlightRecordsOfAPointwiseOrUnknownEdgeFailARescaleWithTheAdviceToShuffle() {
        OperatorState state = new OperatorState("op", 2, 128, Map.of(0,
                new OperatorSubtaskState(List.of(), List.of(), List.of(channel("e3", 0)))), null);
        assertThatThrownBy(() -> StateAssignmentOperation.redistribute(state, 3, 128,
                id -> edge(dev.runnel.runtime.rescale.SubtaskStateMapper.UNSUPPORTED, 2)))
                .hasMessageContaining("Operator op").hasMessageContaining("edge e3 (FORWARD)")
                .hasMessageContaining("from 2 to 3").hasMessageContaining("shuffle()");
        assertThatThrownBy(() -> StateAssignmentOperation.redistribute(state, 3, 128, id -> null))
                .hasMessageContaining("edge e3").hasMessageContaining("no longer has");
        // the consumer keeps its parallelism, but the producer of a rescale() edge changed: refused as well
        OperatorState same = new OperatorState("op", 2, 128, Map.of(0,
                new OperatorSubtaskState(List.of(), List.of(), List.of(channel("e3", 3)))), null);
        assertThatThrownBy(() -> StateAssignmentOperation.redistribute(same, 2, 128,
                id -> new ChannelStateAssignment.Edge("e3 (RESCALE)",
                        dev.runnel.runtime.rescale.SubtaskStateMapper.UNSUPPORTED,
                        dev.runnel.runtime.rescale.SubtaskStateMapper.UNSUPPORTED, 4, 2)))
                .hasMessageContaining("its producer").hasMessageContaining("from 4 to 2");
    }

    private static dev.runnel.runtime.state.InputChannelStateHandle channel(String edge, int producer) {
        return new dev.runnel.runtime.state.InputChannelStateHandle(0, edge, producer, 3,
                new ByteStreamStateHandle("channel-" + producer, new byte[] {1}));
    }

    private static ChannelStateAssignment.Edge edge(dev.runnel.runtime.rescale.SubtaskStateMapper downstream,
            int producers) {
        String name = downstream == dev.runnel.runtime.rescale.SubtaskStateMapper.UNSUPPORTED ? "FORWARD" : "HASH";
        return new ChannelStateAssignment.Edge("e3 (" + name + ")", downstream == dev.runnel.runtime.rescale
                .SubtaskStateMapper.UNSUPPORTED ? downstream : dev.runnel.runtime.rescale.SubtaskStateMapper.ARBITRARY,
                downstream, producers, producers);
    }
}
