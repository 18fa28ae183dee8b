package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.util.Preconditions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Redistributes one operator's checkpointed state to the subtasks of a new parallelism: the core of
 * rescaling. Nothing is read or copied; new handles point into the old blobs and files.
 *
 * <p><b>Keyed state</b> moves by key group. New subtask {@code i} of {@code q} owns
 * {@link KeyGroupRangeAssignment#computeKeyGroupRangeForOperatorIndex(int, int, int)
 * computeKeyGroupRangeForOperatorIndex(maxParallelism, q, i)} and gets every old keyed handle whose key-group
 * range intersects it, in old-subtask order: a {@link KeyGroupsStateHandle} narrowed to the intersection (the
 * same blob with the offsets of the shared key groups only, so the restore never touches another subtask's
 * key groups), an {@link IncrementalRemoteKeyedStateHandle} whole (the RocksDB store downloads its files and
 * clips the key groups it does not own).
 *
 * <pre>
 *   max parallelism 8, old 4 → new 3      old: 0-1 | 2-3 | 4-5 | 6-7      new: 0-2 | 3-5 | 6-7
 *     new 0 ← old 0 (0-1), old 1 narrowed to 2     new 1 ← old 1 narrowed to 3, old 2 (4-5)
 *     new 2 ← old 3 (6-7)
 * </pre>
 *
 * The max parallelism, the number of key groups, cannot change while an operator has keyed state: a key's
 * key group is its hash modulo that number, so the old groups cannot be split or re-hashed.
 *
 * <p><b>Operator state</b> moves as {@link RoundRobinOperatorStateRepartitioner} says: list state split in
 * contiguous runs round-robin, union state to everyone, broadcast state one copy each. Source reader splits
 * ({@code SourceReaderState}), sink writer state and committables are list states and need nothing special.
 *
 * <p><b>The coordinator's state</b> (a source's split enumerator) does not depend on the parallelism and is
 * carried over as it is.
 *
 * <p><b>Channel state</b> (the in-flight records of an unaligned checkpoint) moves by the input edges'
 * {@code SubtaskStateMapper}s, as {@link ChannelStateAssignment} says, when the caller names the edges.
 *
 * <p>At an unchanged parallelism and max parallelism the operator state is returned as it is, unless it has
 * union state (or broadcast state some subtask lacks), which is handed round as above while everything else
 * stays in place.
 *
 * <p>Stateless; every method is static, pure and thread-safe. Handles are shared, not copied, between the
 * argument and the result; both must stay valid (the checkpoint's files must exist) for as long as a restore
 * may use them.
 */
public final class StateAssignmentOperation {

    private StateAssignmentOperation() {}

    /**
     * The state of operator {@code state} for each subtask of {@code newParallelism}, as an
     * {@code OperatorState} of that parallelism (same id and coordinator state). Returns {@code state} itself
     * when nothing moves.
     *
     * @param newMaxParallelism the operator's max parallelism in the job that restores
     * @throws IllegalStateException naming the operator if the state cannot be redistributed: the max parallelism
     *     changed while it has keyed state, {@code newParallelism} exceeds the max parallelism, or its operator
     *     state has a handle of an unknown type or one state name in two modes
     */
    public static OperatorState redistribute(OperatorState state, int newParallelism, int newMaxParallelism) {
        return redistribute(state, newParallelism, newMaxParallelism, null);
    }

    /**
     * As {@link #redistribute(OperatorState, int, int)}, with the in-flight records of an unaligned checkpoint
     * (channel state) reassigned by {@link ChannelStateAssignment} over the operator's input edges.
     *
     * @param edges the operator's input edge of an edge id, or null if it has none; {@code edges} itself null:
     *     the edges are not known, and channel state is only restored at the same parallelism
     * @throws IllegalStateException as above, or if channel state cannot be reassigned (see
     *     {@link ChannelStateAssignment#assign})
     */
    public static OperatorState redistribute(OperatorState state, int newParallelism, int newMaxParallelism,
            java.util.function.Function<String, ChannelStateAssignment.Edge> edges) {
        Preconditions.checkNotNull(state, "state");
        String owner = "Operator " + state.getOperatorID();
        int oldParallelism = state.getParallelism();
        int maxParallelism = state.getMaxParallelism();
        boolean keyed = state.getSubtaskStates().values().stream().anyMatch(s -> !s.managedKeyedState().isEmpty());
        if (keyed && newMaxParallelism != maxParallelism) {
            throw new IllegalStateException(String.format("%s was checkpointed with max parallelism %s and now has max"
                    + " parallelism %s. Its keyed state is split into %s key groups (a key's group is its hash modulo"
                    + " the max parallelism), which cannot be re-hashed into %s. Set the operator's max parallelism"
                    + " back to %s (setMaxParallelism, or pipeline.max-parallelism for the whole job).", owner,
                    maxParallelism, newMaxParallelism, maxParallelism, newMaxParallelism, maxParallelism));
        }
        if (newParallelism < 1 || newParallelism > newMaxParallelism) {
            throw new IllegalStateException(String.format("%s cannot be restored at parallelism %s: it must be between 1"
                    + " and its max parallelism %s.", owner, newParallelism, newMaxParallelism));
        }
        boolean inFlight = state.getSubtaskStates().values().stream().anyMatch(s -> !s.inputChannelState().isEmpty());
        if (inFlight && newParallelism != oldParallelism && edges == null) {
            throw new IllegalStateException(String.format("%s holds in-flight records of an unaligned checkpoint"
                    + " (channel state) from parallelism %s, and its input edges are not known here to redistribute"
                    + " them. Restore at parallelism %s, or take a savepoint (savepoints are always aligned)"
                    + " and rescale from it.", owner, oldParallelism, oldParallelism));
        }
        // Before the early return below: at an unchanged parallelism the assignment is the identity, but it
        // still refuses an edge whose producer was rescaled across a pointwise partitioner.
        List<List<dev.runnel.runtime.state.InputChannelStateHandle>> channelState =
                inFlight && edges != null ? ChannelStateAssignment.assign(state, newParallelism, edges, owner) : null;
        List<List<OperatorStateHandle>> oldOperatorState = new ArrayList<>(oldParallelism);
        for (int subtask = 0; subtask < oldParallelism; subtask++) {
            oldOperatorState.add(state.getState(subtask).managedOperatorState());
        }
        List<List<OperatorStateHandle>> newOperatorState = RoundRobinOperatorStateRepartitioner.repartition(
                oldOperatorState, oldParallelism, newParallelism, owner);
        boolean sameKeyGroups = newParallelism == oldParallelism;
        if (sameKeyGroups && newOperatorState == oldOperatorState && newMaxParallelism == maxParallelism) {
            return state;
        }
        Map<Integer, OperatorSubtaskState> subtasks = new HashMap<>();
        for (int subtask = 0; subtask < newParallelism; subtask++) {
            List<KeyedStateHandle> keyedState;
            if (!keyed) {
                keyedState = List.of();
            } else if (sameKeyGroups) {
                keyedState = state.getState(subtask).managedKeyedState();
            } else {
                keyedState = new ArrayList<>();
                KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(maxParallelism,
                        newParallelism, subtask);
                for (OperatorSubtaskState old : state.getSubtaskStates().values()) {
                    keyedState.addAll(getKeyedStateHandles(old.managedKeyedState(), range));
                }
            }
            // Without channel state, or without edges to reassign it (then the parallelism is unchanged, checked
            // above), subtask i keeps its own.
            OperatorSubtaskState assigned = new OperatorSubtaskState(keyedState, newOperatorState.get(subtask),
                    channelState != null ? channelState.get(subtask) : state.getState(subtask).inputChannelState());
            if (!assigned.isEmpty()) {
                subtasks.put(subtask, assigned);
            }
        }
        return new OperatorState(state.getOperatorID(), newParallelism, newMaxParallelism, subtasks,
                state.getCoordinatorState());
    }

    /**
     * The key-group range of each subtask of {@code parallelism} over {@code numberKeyGroups} key groups (the
     * max parallelism), by subtask index.
     */
    public static List<KeyGroupRange> createKeyGroupPartitions(int numberKeyGroups, int parallelism) {
        Preconditions.checkArgument(parallelism >= 1 && numberKeyGroups >= parallelism,
                "Cannot split %s key groups among %s subtasks", numberKeyGroups, parallelism);
        List<KeyGroupRange> ranges = new ArrayList<>(parallelism);
        for (int i = 0; i < parallelism; i++) {
            ranges.add(KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(numberKeyGroups, parallelism, i));
        }
        return List.copyOf(ranges);
    }

    /**
     * The parts of {@code handles} a subtask owning {@code range} restores, in the order given: each handle
     * that intersects {@code range}, narrowed to the intersection where its kind allows (see
     * {@link #getIntersection}). Handles without a key group in {@code range} are left out.
     */
    public static List<KeyedStateHandle> getKeyedStateHandles(Collection<? extends KeyedStateHandle> handles,
            KeyGroupRange range) {
        List<KeyedStateHandle> result = new ArrayList<>();
        for (KeyedStateHandle handle : handles) {
            KeyedStateHandle part = getIntersection(handle, range);
            if (part != null) {
                result.add(part);
            }
        }
        return result;
    }

    /**
     * What of {@code handle} a subtask owning {@code range} restores, or null if nothing: a
     * {@link KeyGroupsStateHandle} with the offsets of the shared key groups only (the handle itself when it
     * lies wholly inside {@code range}); any other kind, whose files cannot be split by key group
     * ({@link IncrementalRemoteKeyedStateHandle}), whole, for the store to clip.
     */
    public static KeyedStateHandle getIntersection(KeyedStateHandle handle, KeyGroupRange range) {
        Preconditions.checkNotNull(handle, "handle");
        KeyGroupRange common = handle.getKeyGroupRange().getIntersection(range);
        if (common.getNumberOfKeyGroups() <= 0) {
            return null;
        }
        // KeyedStateHandle has no intersection method of its own; the canonical format is the one kind that
        // can be narrowed without reading it, so it is singled out here rather than in every store.
        if (handle instanceof KeyGroupsStateHandle canonical && !common.equals(canonical.getKeyGroupRange())) {
            return new KeyGroupsStateHandle(canonical.getKeyGroupRangeOffsets().intersect(range),
                    canonical.getDelegateStateHandle());
        }
        return handle;
    }
}
