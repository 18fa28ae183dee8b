package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import java.util.Map;

/**
 * The state a task starts from: checkpoint {@code checkpointId}'s state of each operator of its chain, by
 * operator id (operators without state are missing).
 */
public record TaskRestore(long checkpointId, Map<String, OperatorSubtaskState> operatorStates)
        implements java.io.Serializable {

    public TaskRestore {
        operatorStates = Map.copyOf(operatorStates);
    }

    public OperatorSubtaskState stateOf(String operatorId) {
        return operatorStates.getOrDefault(operatorId, OperatorSubtaskState.EMPTY);
    }
}
