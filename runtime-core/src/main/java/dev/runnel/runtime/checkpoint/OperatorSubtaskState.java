package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.InputChannelStateHandle;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.runtime.state.SharedStateRegistry;
import java.io.IOException;
import java.io.Serializable;
import java.util.List;

/**
 * The state of one operator in one subtask at a checkpoint: its keyed state (and timers), its operator
 * state and, for the head operator of a task at an unaligned checkpoint, the in-flight records of the task's
 * input channels ({@link InputChannelStateHandle}, in gate and channel order). Any may be empty. Immutable.
 */
public record OperatorSubtaskState(List<KeyedStateHandle> managedKeyedState,
        List<OperatorStateHandle> managedOperatorState, List<InputChannelStateHandle> inputChannelState)
        implements Serializable {

    public static final OperatorSubtaskState EMPTY = new OperatorSubtaskState(List.of(), List.of());

    public OperatorSubtaskState {
        managedKeyedState = List.copyOf(managedKeyedState);
        managedOperatorState = List.copyOf(managedOperatorState);
        inputChannelState = List.copyOf(inputChannelState);
    }

    /** Keyed and operator state without channel state (every checkpoint but an unaligned one's head). */
    public OperatorSubtaskState(List<KeyedStateHandle> managedKeyedState,
            List<OperatorStateHandle> managedOperatorState) {
        this(managedKeyedState, managedOperatorState, List.of());
    }

    /** This state with {@code channels} as its input channel state. */
    public OperatorSubtaskState withInputChannelState(List<InputChannelStateHandle> channels) {
        return new OperatorSubtaskState(managedKeyedState, managedOperatorState, channels);
    }

    public boolean isEmpty() {
        return managedKeyedState.isEmpty() && managedOperatorState.isEmpty() && inputChannelState.isEmpty();
    }

    /**
     * Registers the shared files of this subtask's incremental keyed snapshots for checkpoint
     * {@code checkpointId} (see {@link SharedStateRegistry}: before the metadata is written).
     */
    public void registerSharedStates(SharedStateRegistry registry, long checkpointId) {
        for (KeyedStateHandle handle : managedKeyedState) {
            handle.registerSharedStates(registry, checkpointId);
        }
    }

    /**
     * Deletes what this subtask's handles own exclusively (shared files stay, they are the registry's).
     * Tries every handle; the first failure is thrown with the others suppressed.
     */
    public void discardState() throws IOException {
        IOException failure = null;
        for (KeyedStateHandle handle : managedKeyedState) {
            try {
                handle.discardState();
            } catch (IOException e) {
                failure = CompletedCheckpoint.addFailure(failure, e);
            }
        }
        for (OperatorStateHandle handle : managedOperatorState) {
            try {
                handle.discardState();
            } catch (IOException e) {
                failure = CompletedCheckpoint.addFailure(failure, e);
            }
        }
        for (InputChannelStateHandle handle : inputChannelState) {
            try {
                handle.discardState();
            } catch (IOException e) {
                failure = CompletedCheckpoint.addFailure(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    public long getStateSize() {
        long size = 0;
        for (KeyedStateHandle handle : managedKeyedState) {
            size += handle.getStateSize();
        }
        for (OperatorStateHandle handle : managedOperatorState) {
            size += handle.getStateSize();
        }
        for (InputChannelStateHandle handle : inputChannelState) {
            size += handle.getStateSize();
        }
        return size;
    }
}
