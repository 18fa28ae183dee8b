package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.rescale.RescaleMappings;
import dev.runnel.runtime.rescale.SubtaskStateMapper;
import dev.runnel.runtime.state.InputChannelStateHandle;
import dev.runnel.util.Preconditions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Reassigns the in-flight records of an unaligned checkpoint (the {@link InputChannelStateHandle}s of a head
 * operator) to the subtasks of a new parallelism, by each edge's {@link SubtaskStateMapper}s.
 *
 * <p>The consumer side decides: new subtask {@code j} gets every handle of the old subtasks the edge's
 * <em>downstream</em> mapper names for {@code j} (RANGE: the old subtasks whose key groups meet {@code j}'s,
 * ROUND_ROBIN / ARBITRARY: dealt out, FULL: all of them, FIRST: all to subtask 0). When the mapper is
 * {@linkplain SubtaskStateMapper#isAmbiguous() ambiguous} one handle goes to several new subtasks, and each
 * must keep, on replay, only the records the edge's partitioner now routes to it; that filter is the task's
 * job, this class only says who reads what. An UNSUPPORTED mapper (forward, rescale, broadcast) fails with the
 * advice to put an explicit {@code shuffle()} on the edge.
 *
 * <p>The <em>upstream</em> mapper is only checked, not applied: Runnel persists no output channel state, and a
 * handle names its producer subtask only to describe it (replay hands the records straight to the head
 * operator, not to a live channel), so a changed producer parallelism moves nothing, but an edge whose
 * upstream mapper is UNSUPPORTED is refused then, as Flink refuses it.
 *
 * <p>Stateless; static, pure and thread-safe.
 */
public final class ChannelStateAssignment {

    private ChannelStateAssignment() {}

    /**
     * What the restoring job knows of one input edge of the operator.
     *
     * @param description names the edge in errors, e.g. {@code "e1 (HASH) from 'map' to 'count'"}
     * @param upstreamMapper the edge partitioner's upstream mapper
     * @param downstreamMapper the edge partitioner's downstream mapper
     * @param oldProducerParallelism the producer's parallelism in the checkpoint, or 0 when it is not known (the
     *     producer had no state)
     * @param newProducerParallelism the producer's parallelism now
     */
    public record Edge(String description, SubtaskStateMapper upstreamMapper, SubtaskStateMapper downstreamMapper,
            int oldProducerParallelism, int newProducerParallelism) {

        public Edge {
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(upstreamMapper, "upstreamMapper");
            Objects.requireNonNull(downstreamMapper, "downstreamMapper");
            Preconditions.checkArgument(newProducerParallelism >= 1, "newProducerParallelism must be >= 1");
        }
    }

    /**
     * The channel state each of {@code newParallelism} subtasks replays, by new subtask index; each list in the
     * old subtasks' order, each handle's records in their channel order.
     *
     * @param edges the operator's input edge of a handle's {@code edgeId}, or null if it has none
     * @param owner names the operator in errors
     * @throws IllegalStateException naming the edge if a handle's edge is gone or cannot be rescaled
     */
    public static List<List<InputChannelStateHandle>> assign(OperatorState state, int newParallelism,
            Function<String, Edge> edges, String owner) {
        Preconditions.checkNotNull(state, "state");
        Preconditions.checkNotNull(edges, "edges");
        Preconditions.checkArgument(newParallelism >= 1, "newParallelism must be >= 1");
        int oldParallelism = state.getParallelism();
        List<List<InputChannelStateHandle>> assigned = new ArrayList<>(newParallelism);
        for (int i = 0; i < newParallelism; i++) {
            assigned.add(new ArrayList<>());
        }
        // One inverse mapping (old subtask -> new subtasks) per edge; computed lazily because it may throw.
        Map<String, RescaleMappings> oldToNew = new HashMap<>();
        for (int old = 0; old < oldParallelism; old++) {
            for (InputChannelStateHandle handle : state.getState(old).inputChannelState()) {
                Edge edge = edges.apply(handle.edgeId());
                if (edge == null) {
                    throw new IllegalStateException(String.format("%s holds in-flight records of an unaligned"
                            + " checkpoint on edge %s (input %s), which the job no longer has into this operator;"
                            + " restore the job with its former topology, or from a savepoint (always aligned).",
                            owner, handle.edgeId(), handle.gateIndex()));
                }
                boolean producerRescaled = handle.producerSubtask() >= edge.newProducerParallelism()
                        || (edge.oldProducerParallelism() > 0
                                && edge.oldProducerParallelism() != edge.newProducerParallelism());
                if (producerRescaled && edge.upstreamMapper() == SubtaskStateMapper.UNSUPPORTED) {
                    throw unsupported(owner, edge, "its producer", edge.oldProducerParallelism() > 0
                            ? edge.oldProducerParallelism() : handle.producerSubtask() + 1,
                            edge.newProducerParallelism());
                }
                if (oldParallelism == newParallelism) {
                    assigned.get(old).add(handle);
                    continue;
                }
                if (edge.downstreamMapper() == SubtaskStateMapper.UNSUPPORTED) {
                    throw unsupported(owner, edge, "its consumer", oldParallelism, newParallelism);
                }
                RescaleMappings mapping = oldToNew.computeIfAbsent(handle.edgeId(), id -> edge.downstreamMapper()
                        .getNewToOldSubtasksMapping(oldParallelism, newParallelism).invert());
                for (int target : mapping.getMappedIndexes(old)) {
                    assigned.get(target).add(handle);
                }
            }
        }
        return assigned;
    }

    private static IllegalStateException unsupported(String owner, Edge edge, String side, int from, int to) {
        return new IllegalStateException(String.format("%s holds in-flight records of an unaligned checkpoint on edge"
                + " %s, whose partitioner cannot redistribute in-flight data, and %s changed parallelism from %s to %s."
                + " Put an explicit shuffle() (or rebalance()) on that edge so its records can be redistributed, or"
                + " restore at the former parallelism, or take a savepoint (always aligned) and rescale from it.",
                owner, edge.description(), side, from, to));
    }
}
