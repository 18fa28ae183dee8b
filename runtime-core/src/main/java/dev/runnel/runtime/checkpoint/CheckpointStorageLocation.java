package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.CheckpointStreamFactory;
import java.io.IOException;

/**
 * The place where one checkpoint is being written (its {@code chk-N} folder, or a savepoint folder): tasks
 * write their state through it as a {@link CheckpointStreamFactory}; the coordinator finishes it by
 * writing the metadata last and atomically, or disposes of it when the checkpoint fails. Thread-safe.
 */
public interface CheckpointStorageLocation extends CheckpointStreamFactory {

    long getCheckpointId();

    /** The folder, as the checkpoint's external pointer. */
    String getExternalPointer();

    /**
     * Writes {@code checkpoint}'s {@code _metadata} into this location: to a temporary file, synced, then
     * renamed, so the file either is complete or does not exist.
     */
    void writeMetadata(CompletedCheckpoint checkpoint) throws IOException;

    /** Deletes the location and everything exclusive in it (a failed, timed-out or declined checkpoint). */
    void disposeOnFailure() throws IOException;
}
