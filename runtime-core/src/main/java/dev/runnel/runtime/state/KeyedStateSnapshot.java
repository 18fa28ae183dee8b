package dev.runnel.runtime.state;

import java.io.IOException;
import java.io.OutputStream;

/**
 * The keyed state and timers of some key groups as they were at one moment, taken by
 * {@link KeyedStateBackend#snapshotSync} on the task thread and written out later, typically on
 * another thread while the task goes on processing and changing its state. The bytes written are
 * Runnel's backend-independent snapshot format, exactly as {@link KeyedStateBackend#snapshot} writes
 * them: they restore into either store, at any parallelism.
 *
 * <p>Threads: {@link #writeTo} from any one thread, once; {@link #release} from any thread, any number
 * of times. Hand the snapshot to the writing thread through a safe publication (an executor, a queue,
 * a thread start), as any object built on the task thread.
 *
 * <p>Ownership: the snapshot pins resources of its backend (copy-on-write versions on the heap, a
 * native RocksDB snapshot), so that the backend does more work or keeps more memory or files while it
 * is pending. {@link #writeTo} frees them when it returns, whether it succeeded or not; a snapshot
 * that will not be written must be {@link #release released}. Closing the backend releases what is
 * still pending.
 */
public interface KeyedStateSnapshot {

    /** The key groups this snapshot holds. */
    KeyGroupRange getKeyGroupRange();

    /**
     * Writes the snapshot to {@code out} (which it does not close) and returns where each key group
     * starts, relative to the first byte written; then frees what the snapshot pinned.
     *
     * @throws IOException if {@code out} fails, reading the state fails, or the snapshot was released
     *     (before or while writing)
     * @throws IllegalStateException if called a second time
     */
    KeyGroupRangeOffsets writeTo(OutputStream out) throws IOException;

    /**
     * Gives the snapshot up: frees what it pinned now, or, while {@link #writeTo} runs on another
     * thread, makes that write stop early with an {@link IOException} and free it then. Does nothing
     * once the snapshot is written or released.
     */
    void release();

    /**
     * The asynchronous phase for a checkpoint: writes the snapshot through {@code streams} and returns its
     * handle. By default one exclusive blob in the canonical format ({@link #writeTo}); an incremental store
     * writes its new files as shared state instead. Frees what the snapshot pinned, as {@link #writeTo}.
     */
    default KeyedStateHandle materialize(CheckpointStreamFactory streams) throws IOException {
        try (CheckpointStateOutputStream out = streams.createCheckpointStateOutputStream(
                CheckpointedStateScope.EXCLUSIVE)) {
            KeyGroupRangeOffsets offsets = writeTo(out);
            return new KeyGroupsStateHandle(offsets, out.closeAndGetHandle());
        } finally {
            release();
        }
    }
}
