package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle.Mode;
import dev.runnel.runtime.state.OperatorStateHandle.StateMetaInfo;
import dev.runnel.runtime.state.OperatorStreamStateHandle;
import dev.runnel.util.Preconditions;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Flink's default redistribution of operator state, by each state's {@link Mode}. Only offsets are
 * rewritten: every new handle points at an old subtask's blob and lists the offsets of the elements the new
 * subtask restores from it (one handle per old blob a new subtask reads, with all its states in it).
 *
 * <ul>
 *   <li><b>{@code SPLIT_DISTRIBUTE}</b> (list state, e.g. a source's {@code SourceReaderState}): the elements
 *       of all old subtasks, concatenated in old-subtask order, are cut into {@code q} contiguous runs; the
 *       first {@code n mod q} runs of the round get {@code n / q + 1} elements, the others {@code n / q}.
 *       The round starts at new subtask {@code start}, which is 0 for the first list state of the operator
 *       and moves on by {@code n mod q} for each next one, so that the extra elements of several list states
 *       do not all pile up on subtask 0.
 *   <li><b>{@code UNION}</b>: every new subtask gets every element of every old subtask &mdash; also at an
 *       unchanged parallelism, as in Flink (that is the contract of {@code getUnionListState}).
 *   <li><b>{@code BROADCAST}</b>: every old subtask held the same map; new subtask {@code i} gets the copy of
 *       the {@code (i mod k)}-th old subtask that has it ({@code k} of them; {@code k = p} unless subtasks
 *       finished without state), spreading the reads over the old blobs.
 * </ul>
 *
 * <pre>
 *   one list state, old parallelism 3 → new 4; 10 elements: 4 runs of 2, and 10 mod 4 = 2 runs of one more
 *     old 0: a0 a1 a2 a3 a4      old 1: b0 b1 b2      old 2: c0 c1
 *     new 0: a0 a1 a2            new 1: a3 a4 b0      new 2: b1 b2      new 3: c0 c1
 *   a second list state of the same operator, 5 elements x0..x4: its round starts at (0 + 2) mod 4 = 2
 *     new 2: x0 x1               new 3: x2            new 0: x3         new 1: x4
 * </pre>
 *
 * Between list states the order is that of a {@link HashMap} of their names, the order Flink's repartitioner
 * walks them in; with one list state per operator (the usual case) the order does not matter.
 *
 * <p>At an unchanged parallelism every subtask keeps its own handles (the argument is returned as it is)
 * unless a union state, or a broadcast state some subtask did not report, needs handing round; then only
 * those states move and the rest stays in place.
 *
 * <p>Stateless and thread-safe; {@link #INSTANCE} is the one instance.
 */
public final class RoundRobinOperatorStateRepartitioner implements OperatorStateRepartitioner {

    /** The repartitioner. */
    public static final OperatorStateRepartitioner INSTANCE = new RoundRobinOperatorStateRepartitioner();

    private RoundRobinOperatorStateRepartitioner() {}

    @Override
    public List<List<OperatorStateHandle>> repartitionState(List<List<OperatorStateHandle>> previousParallelSubtaskStates,
            int oldParallelism, int newParallelism) {
        return repartition(previousParallelSubtaskStates, oldParallelism, newParallelism, "The operator");
    }

    /** As {@link #repartitionState}; {@code owner} names the operator in error messages. */
    static List<List<OperatorStateHandle>> repartition(List<List<OperatorStateHandle>> previous, int oldParallelism,
            int newParallelism, String owner) {
        Preconditions.checkNotNull(previous, "previousParallelSubtaskStates");
        Preconditions.checkArgument(oldParallelism >= 1 && newParallelism >= 1,
                "%s: parallelisms must be at least 1, were %s (old) and %s (new)", owner, oldParallelism, newParallelism);
        Preconditions.checkArgument(previous.size() == oldParallelism,
                "%s: expected the operator state of %s old subtasks, got %s", owner, oldParallelism, previous.size());
        Map<String, NamedState> states = collect(previous, owner);
        boolean same = oldParallelism == newParallelism;
        if (same && states.values().stream().noneMatch(s -> s.movesAtSameParallelism(oldParallelism))) {
            return previous;
        }
        List<Assignment> assignments = new ArrayList<>(newParallelism);
        for (int i = 0; i < newParallelism; i++) {
            assignments.add(new Assignment());
        }
        if (same) {
            for (NamedState state : states.values()) {
                if (!state.movesAtSameParallelism(oldParallelism)) {
                    for (Part part : state.parts) {
                        assignments.get(part.source.subtask).add(part.source, state.name, part.info);
                    }
                }
            }
        } else {
            // A HashMap, not the insertion-ordered map: see the class comment on the order between list states.
            Map<String, NamedState> listStates = new HashMap<>();
            states.values().stream().filter(s -> s.mode == Mode.SPLIT_DISTRIBUTE).forEach(s -> listStates.put(s.name, s));
            int start = 0;
            for (NamedState state : listStates.values()) {
                start = split(state, start, assignments);
            }
        }
        for (NamedState state : states.values()) {
            if (state.mode == Mode.UNION) {
                for (Assignment assignment : assignments) {
                    state.parts.forEach(part -> assignment.add(part.source, state.name, part.info));
                }
            } else if (state.mode == Mode.BROADCAST && (!same || state.movesAtSameParallelism(oldParallelism))) {
                for (int i = 0; i < newParallelism; i++) {
                    Part part = state.parts.get(i % state.parts.size());
                    assignments.get(i).add(part.source, state.name, part.info);
                }
            }
        }
        List<List<OperatorStateHandle>> result = new ArrayList<>(newParallelism);
        for (Assignment assignment : assignments) {
            result.add(assignment.handles());
        }
        return List.copyOf(result);
    }

    /**
     * Deals the elements of list state {@code state} out to the new subtasks in contiguous runs, starting the
     * round at new subtask {@code start}; returns where the next list state's round starts.
     */
    private static int split(NamedState state, int start, List<Assignment> assignments) {
        int parallelism = assignments.size();
        long total = 0;
        for (Part part : state.parts) {
            total += part.info.offsets().length;
        }
        long base = total / parallelism;
        int extra = (int) (total % parallelism);
        int partIndex = 0;
        int offsetIndex = 0;
        for (int k = 0; k < parallelism; k++) {
            int target = (start + k) % parallelism;
            long count = base + (k < extra ? 1 : 0);
            while (count > 0) {
                Part part = state.parts.get(partIndex);
                long[] offsets = part.info.offsets();
                int take = (int) Math.min(count, offsets.length - offsetIndex);
                if (take > 0) {
                    long[] run = Arrays.copyOfRange(offsets, offsetIndex, offsetIndex + take);
                    assignments.get(target).add(part.source, state.name, new StateMetaInfo(run, Mode.SPLIT_DISTRIBUTE));
                    offsetIndex += take;
                    count -= take;
                }
                if (offsetIndex == offsets.length) {
                    partIndex++;
                    offsetIndex = 0;
                }
            }
        }
        return (start + extra) % parallelism;
    }

    /**
     * Every state name with its mode and, in old-subtask order, the offsets each old handle holds of it;
     * names in order of first appearance (old subtask, handle, then name order within a handle, since a
     * handle's map has no order of its own). Checks handle types and that each name keeps one mode.
     */
    private static Map<String, NamedState> collect(List<List<OperatorStateHandle>> previous, String owner) {
        Map<String, NamedState> states = new LinkedHashMap<>();
        for (int subtask = 0; subtask < previous.size(); subtask++) {
            List<OperatorStateHandle> handles = previous.get(subtask);
            Preconditions.checkNotNull(handles, "%s: the operator state list of old subtask %s is null", owner, subtask);
            for (int index = 0; index < handles.size(); index++) {
                OperatorStateHandle handle = handles.get(index);
                if (handle == null) {
                    continue;
                }
                if (!(handle instanceof OperatorStreamStateHandle)) {
                    throw new IllegalStateException(String.format("%s: the operator state of old subtask %s is a %s (%s);"
                            + " only %s, which DefaultOperatorStateBackend writes, lists its elements' offsets and can be"
                            + " redistributed to another parallelism.", owner, subtask, handle.getClass().getName(),
                            handle.getDelegateStateHandle().describe(), OperatorStreamStateHandle.class.getSimpleName()));
                }
                Source source = new Source(subtask, index, handle);
                Map<String, StateMetaInfo> infos = new TreeMap<>(handle.getStateNameToPartitionOffsets());
                for (Map.Entry<String, StateMetaInfo> entry : infos.entrySet()) {
                    String name = entry.getKey();
                    StateMetaInfo info = entry.getValue();
                    NamedState state = states.computeIfAbsent(name, n -> new NamedState(n, info.distributionMode(),
                            source.subtask));
                    if (state.mode != info.distributionMode()) {
                        throw new IllegalStateException(String.format("%s: operator state '%s' is %s in old subtask %s but"
                                + " %s in old subtask %s. A state name keeps one kind (getListState, getUnionListState or"
                                + " a broadcast state) in every subtask; the checkpoint cannot be redistributed.", owner,
                                name, state.mode, state.firstSubtask, info.distributionMode(), subtask));
                    }
                    state.parts.add(new Part(source, info));
                    state.subtasks.add(subtask);
                }
            }
        }
        return states;
    }

    /** Old subtask {@code subtask}'s {@code index}-th operator state handle. */
    private record Source(int subtask, int index, OperatorStateHandle handle) {
        static final Comparator<Source> ORDER = Comparator.comparingInt(Source::subtask).thenComparingInt(Source::index);
    }

    /** What one old handle holds of one state. */
    private record Part(Source source, StateMetaInfo info) {}

    private static final class NamedState {
        final String name;
        final Mode mode;
        final int firstSubtask;
        final List<Part> parts = new ArrayList<>();
        final Set<Integer> subtasks = new HashSet<>();

        NamedState(String name, Mode mode, int firstSubtask) {
            this.name = name;
            this.mode = mode;
            this.firstSubtask = firstSubtask;
        }

        /**
         * Whether this state is handed round even when the parallelism stays: union state always; broadcast
         * state when some subtask lacks it (it finished before the checkpoint), so that it gets a copy again.
         */
        boolean movesAtSameParallelism(int parallelism) {
            return mode == Mode.UNION || (mode == Mode.BROADCAST && subtasks.size() < parallelism);
        }
    }

    /** What one new subtask restores: per old handle, in old order, the offsets of each state it reads there. */
    private static final class Assignment {
        private final Map<Source, Map<String, StateMetaInfo>> bySource = new TreeMap<>(Source.ORDER);

        void add(Source source, String name, StateMetaInfo info) {
            bySource.computeIfAbsent(source, s -> new HashMap<>()).put(name, info);
        }

        List<OperatorStateHandle> handles() {
            List<OperatorStateHandle> handles = new ArrayList<>(bySource.size());
            bySource.forEach((source, infos) -> handles.add(infos.equals(source.handle.getStateNameToPartitionOffsets())
                    ? source.handle // all of an old handle: keep it rather than an equal copy
                    : new OperatorStreamStateHandle(infos, source.handle.getDelegateStateHandle())));
            return List.copyOf(handles);
        }
    }
}
