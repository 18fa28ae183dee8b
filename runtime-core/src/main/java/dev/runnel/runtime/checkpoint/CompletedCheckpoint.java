package dev.runnel.runtime.checkpoint;

import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A checkpoint every task acknowledged: the state of every operator, by operator id, and where its metadata
 * lives ({@link #getExternalPointer()}, the {@code chk-N} or savepoint folder). This is what the
 * {@code _metadata} file holds and what a restore reads. Immutable.
 */
public final class CompletedCheckpoint implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String jobId;
    private final long checkpointId;
    private final long triggerTimestamp;
    private final long completionTimestamp;
    private final Map<String, OperatorState> operatorStates;
    private final CheckpointProperties properties;
    private final String externalPointer;

    public CompletedCheckpoint(String jobId, long checkpointId, long triggerTimestamp, long completionTimestamp,
            Map<String, OperatorState> operatorStates, CheckpointProperties properties, String externalPointer) {
        this.jobId = Objects.requireNonNull(jobId, "jobId");
        this.checkpointId = checkpointId;
        this.triggerTimestamp = triggerTimestamp;
        this.completionTimestamp = completionTimestamp;
        this.operatorStates = Collections.unmodifiableMap(new TreeMap<>(operatorStates));
        this.properties = Objects.requireNonNull(properties, "properties");
        this.externalPointer = Objects.requireNonNull(externalPointer, "externalPointer");
    }

    public String getJobId() {
        return jobId;
    }

    public long getCheckpointID() {
        return checkpointId;
    }

    public long getTimestamp() {
        return triggerTimestamp;
    }

    public long getCompletionTimestamp() {
        return completionTimestamp;
    }

    /** Every operator's state, by operator id. */
    public Map<String, OperatorState> getOperatorStates() {
        return operatorStates;
    }

    public CheckpointProperties getProperties() {
        return properties;
    }

    /** The folder of the checkpoint (it holds {@code _metadata}). */
    public String getExternalPointer() {
        return externalPointer;
    }

    public long getStateSize() {
        long size = 0;
        for (OperatorState state : operatorStates.values()) {
            size += state.getStateSize();
        }
        return size;
    }

    @Override
    public String toString() {
        return (properties.savepoint() ? "Savepoint " : "Checkpoint ") + checkpointId + " @ " + externalPointer;
    }
}
