package dev.runnel.runtime.state;

import java.io.IOException;

/**
 * Tracks state shared between checkpoints (incremental RocksDB's SST files) and deletes each piece once no
 * retained checkpoint refers to it any more. When older checkpoints are dropped, the store calls
 * {@link #unregisterUnusedState} with the lowest checkpoint id still retained.
 *
 * <p><b>Register before the metadata is written.</b> {@link #registerReference} may answer with another
 * handle than the one passed in (the piece was uploaded twice; the second upload is deleted), and the
 * checkpoint must refer to the answer from then on. A checkpoint's shared state is therefore registered
 * ({@code CompletedCheckpoint.registerSharedStates}) before its {@code _metadata} is written, so the file
 * never names a deleted upload; the completed checkpoint store registers again on add, which is then a
 * no-op apart from the checkpoint id.
 *
 * <p>Thread-safe. Owned by the job's completed checkpoint store.
 */
public interface SharedStateRegistry extends AutoCloseable {

    /**
     * Registers that checkpoint {@code checkpointId} uses {@code handle} under {@code key} and returns the
     * handle to refer to from now on: the one registered first under that key. A second upload of the same
     * piece (a handle not {@link Object#equals equal} to the registered one) is deleted; an equal handle (the
     * same file, e.g. loaded again from a checkpoint's metadata after a restart) is not.
     */
    StreamStateHandle registerReference(SharedStateRegistryKey key, StreamStateHandle handle, long checkpointId);

    /** The handle registered under {@code key}, or null if none is; changes nothing. */
    StreamStateHandle getRegisteredHandle(SharedStateRegistryKey key);

    /**
     * Deletes every piece last used by a checkpoint older than {@code lowestRetainedCheckpointId}.
     */
    void unregisterUnusedState(long lowestRetainedCheckpointId) throws IOException;

    /** Stops deleting; pieces still registered stay where they are (a later run may need them). */
    @Override
    void close();
}
