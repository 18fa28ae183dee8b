package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.SharedStateRegistry;
import dev.runnel.runtime.state.StreamStateHandle;
import java.io.IOException;
import java.io.Serializable;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The state of one operator (by its id: the uid, or the id derived from the graph) over all its subtasks
 * at one checkpoint, with the parallelism and maximum parallelism it ran at, and its coordinator's state
 * (a source's split enumerator) if it has one. Subtasks without state may be missing. Immutable.
 */
public final class OperatorState implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String operatorId;
    private final int parallelism;
    private final int maxParallelism;
    private final Map<Integer, OperatorSubtaskState> subtaskStates;
    private final StreamStateHandle coordinatorState;

    public OperatorState(String operatorId, int parallelism, int maxParallelism,
            Map<Integer, OperatorSubtaskState> subtaskStates, StreamStateHandle coordinatorState) {
        this.operatorId = Objects.requireNonNull(operatorId, "operatorId");
        if (parallelism < 1 || maxParallelism < parallelism) {
            throw new IllegalArgumentException("operator " + operatorId + ": parallelism " + parallelism
                    + " and max parallelism " + maxParallelism + " do not fit");
        }
        this.parallelism = parallelism;
        this.maxParallelism = maxParallelism;
        for (Integer subtask : subtaskStates.keySet()) {
            if (subtask < 0 || subtask >= parallelism) {
                throw new IllegalArgumentException("operator " + operatorId + " has state for subtask " + subtask
                        + " but parallelism " + parallelism);
            }
        }
        this.subtaskStates = java.util.Collections.unmodifiableMap(new TreeMap<>(subtaskStates));
        this.coordinatorState = coordinatorState;
    }

    public String getOperatorID() {
        return operatorId;
    }

    public int getParallelism() {
        return parallelism;
    }

    public int getMaxParallelism() {
        return maxParallelism;
    }

    /** The state of each subtask that has any, by subtask index. */
    public Map<Integer, OperatorSubtaskState> getSubtaskStates() {
        return subtaskStates;
    }

    public OperatorSubtaskState getState(int subtask) {
        return subtaskStates.getOrDefault(subtask, OperatorSubtaskState.EMPTY);
    }

    /** The coordinator's serialized state, or null. */
    public StreamStateHandle getCoordinatorState() {
        return coordinatorState;
    }

    /** Registers the shared state of every subtask for checkpoint {@code checkpointId}. */
    public void registerSharedStates(SharedStateRegistry registry, long checkpointId) {
        for (OperatorSubtaskState state : subtaskStates.values()) {
            state.registerSharedStates(registry, checkpointId);
        }
    }

    /** Deletes the exclusive state of every subtask and the coordinator's; tries all, throws the first failure. */
    public void discardState() throws IOException {
        IOException failure = null;
        for (OperatorSubtaskState state : subtaskStates.values()) {
            try {
                state.discardState();
            } catch (IOException e) {
                failure = CompletedCheckpoint.addFailure(failure, e);
            }
        }
        if (coordinatorState != null) {
            try {
                coordinatorState.discardState();
            } catch (IOException e) {
                failure = CompletedCheckpoint.addFailure(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    public long getStateSize() {
        long size = coordinatorState == null ? 0 : coordinatorState.getStateSize();
        for (OperatorSubtaskState state : subtaskStates.values()) {
            size += state.getStateSize();
        }
        return size;
    }

    @Override
    public String toString() {
        return "OperatorState{" + operatorId + ", parallelism " + parallelism + "/" + maxParallelism + ", "
                + subtaskStates.size() + " subtasks with state}";
    }
}
