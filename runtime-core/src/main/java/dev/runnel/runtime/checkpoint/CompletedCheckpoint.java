package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.SharedStateRegistry;
import java.io.IOException;
import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A checkpoint every task acknowledged: the state of every operator, by operator id, and where its metadata
 * lives ({@link #getExternalPointer()}, the {@code chk-N} or savepoint folder). This is what the
 * {@code _metadata} file holds and what a restore reads. Immutable, apart from the one step that makes its
 * incremental handles refer to the shared state registry's copies.
 *
 * <p>Completing a checkpoint, in this order:
 * <ol>
 *   <li>build the {@code CompletedCheckpoint} with the location's {@code getExternalPointer()};
 *   <li>{@link #registerSharedStates registerSharedStates}{@code (store.getSharedStateRegistry())}: shared
 *       files uploaded twice are swapped for the registry's copy (and the second upload deleted);
 *   <li>{@code location.writeMetadata(checkpoint)}: the file now names only files that stay;
 *   <li>{@code store.addCheckpointAndSubsumeOldestOne(checkpoint)}.
 * </ol>
 * Writing the metadata before step 2 could record a file the registry then deletes; the store's add refuses
 * such a checkpoint (see {@code DefaultCompletedCheckpointStore}).
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

    /**
     * Registers the shared state of every operator with {@code registry} under this checkpoint's id, and
     * makes the handles refer to the registry's copies. Call before writing the metadata; idempotent.
     */
    public void registerSharedStates(SharedStateRegistry registry) {
        for (OperatorState state : operatorStates.values()) {
            state.registerSharedStates(registry, checkpointId);
        }
    }

    /**
     * Deletes the state this checkpoint owns exclusively (not its shared files, and not its folder, which
     * is the storage's). Tries every handle; throws the first failure with the others suppressed.
     */
    public void discardExclusiveState() throws IOException {
        IOException failure = null;
        for (OperatorState state : operatorStates.values()) {
            try {
                state.discardState();
            } catch (IOException e) {
                failure = addFailure(failure, e);
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    static IOException addFailure(IOException first, IOException next) {
        if (first == null) {
            return next;
        }
        first.addSuppressed(next);
        return first;
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
