package dev.runnel.runtime.state;

import java.io.IOException;

/**
 * Tracks state shared between checkpoints (incremental RocksDB's SST files) and deletes each piece once no
 * retained checkpoint refers to it any more. A completed checkpoint registers every shared piece it uses
 * before it is announced complete; when older checkpoints are dropped, the store calls
 * {@link #unregisterUnusedState} with the lowest checkpoint id still retained.
 *
 * <p>Thread-safe. Owned by the job's completed checkpoint store.
 */
public interface SharedStateRegistry extends AutoCloseable {

    /**
     * Registers that checkpoint {@code checkpointId} uses {@code handle} under {@code key} and returns the
     * handle to refer to from now on: the one registered first under that key (a second upload of the same
     * piece is deleted, unless it is the very same handle).
     */
    StreamStateHandle registerReference(SharedStateRegistryKey key, StreamStateHandle handle, long checkpointId);

    /**
     * Deletes every piece last used by a checkpoint older than {@code lowestRetainedCheckpointId}.
     */
    void unregisterUnusedState(long lowestRetainedCheckpointId) throws IOException;

    /** Stops deleting; pieces still registered stay where they are (a later run may need them). */
    @Override
    void close();
}
