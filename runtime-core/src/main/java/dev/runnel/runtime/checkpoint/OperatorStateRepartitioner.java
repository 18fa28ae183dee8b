package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.OperatorStateHandle;
import java.util.List;

/**
 * Redistributes the operator (non-keyed) state of one operator from the subtasks of one parallelism to
 * those of another. The state itself is never read: a repartitioner only rewrites which element offsets of
 * which old blob each new subtask restores.
 *
 * <p>Implementations are stateless and thread-safe. Arguments are not modified; the result and its lists
 * may share handles with the argument (an unchanged parallelism may return the argument itself).
 */
public interface OperatorStateRepartitioner {

    /**
     * The handles each new subtask restores.
     *
     * @param previousParallelSubtaskStates per old subtask, in subtask order, its operator state handles
     *     (an empty list for a subtask without operator state); never null, size {@code oldParallelism}
     * @return per new subtask, in subtask order, its handles; size {@code newParallelism}, never null
     * @throws IllegalArgumentException if a parallelism is below one or the list does not have
     *     {@code oldParallelism} entries
     * @throws IllegalStateException if the state cannot be redistributed (a handle of an unknown type, one
     *     state name with two distribution modes)
     */
    List<List<OperatorStateHandle>> repartitionState(List<List<OperatorStateHandle>> previousParallelSubtaskStates,
            int oldParallelism, int newParallelism);
}
