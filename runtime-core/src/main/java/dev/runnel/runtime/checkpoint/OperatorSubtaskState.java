package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle;
import java.io.Serializable;
import java.util.List;

/**
 * The state of one operator in one subtask at a checkpoint: its keyed state (and timers) and its operator
 * state. Either may be empty. Immutable.
 */
public record OperatorSubtaskState(List<KeyedStateHandle> managedKeyedState,
        List<OperatorStateHandle> managedOperatorState) implements Serializable {

    public static final OperatorSubtaskState EMPTY = new OperatorSubtaskState(List.of(), List.of());

    public OperatorSubtaskState {
        managedKeyedState = List.copyOf(managedKeyedState);
        managedOperatorState = List.copyOf(managedOperatorState);
    }

    public boolean isEmpty() {
        return managedKeyedState.isEmpty() && managedOperatorState.isEmpty();
    }

    public long getStateSize() {
        long size = 0;
        for (KeyedStateHandle handle : managedKeyedState) {
            size += handle.getStateSize();
        }
        for (OperatorStateHandle handle : managedOperatorState) {
            size += handle.getStateSize();
        }
        return size;
    }
}
