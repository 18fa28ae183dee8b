package dev.runnel.runtime.state;

import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.queue.PriorityQueueSetFactory;
import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.util.stream.Stream;

/**
 * The keyed state of one operator in one subtask: every state it registered, for the key groups the
 * subtask owns, plus its timer queues. Implementations keep it on the heap or in RocksDB; the
 * operators see only this interface and the state objects it returns.
 *
 * <p>Contract:
 * <ul>
 *   <li>Task thread only. {@link #setCurrentKey} selects the key every state object then acts on.
 *   <li>State objects are created once per name and reused; asking again for a name with a different
 *       kind or type fails with a message naming the state.
 *   <li>Snapshots are Runnel's backend-independent snapshot format, so a snapshot of one store
 *       restores into the other, and into a different parallelism (by key group). They are taken in
 *       two phases: {@link #snapshotSync} captures the state on the task thread, quickly; the returned
 *       {@link KeyedStateSnapshot} writes it out on another thread while the task keeps processing
 *       (and changing state). {@link #snapshot} does both in one call.
 *   <li>{@link #close()} releases everything (native memory, files); the backend is unusable after.
 * </ul>
 *
 * @param <K> the key type
 */
public interface KeyedStateBackend<K> extends PriorityQueueSetFactory, Closeable {

    /** Sets the current key and computes its key group; fails if the key is not in this backend's range. */
    void setCurrentKey(K newKey);

    /** Sets the current key when the caller already knows its key group (saves a hash). */
    void setCurrentKeyAndKeyGroup(K newKey, int keyGroup);

    /**
     * Sets the current key when the caller already knows its hash code ({@code newKey.hashCode()}) and its
     * key group, so that neither is computed again. The default passes the key group on.
     */
    default void setCurrentKeyAndKeyGroup(K newKey, int keyHash, int keyGroup) {
        setCurrentKeyAndKeyGroup(newKey, keyGroup);
    }

    /**
     * A hint about the keys of the records about to be processed, given by their hash codes
     * ({@code key.hashCode()}) and key groups (each in this backend's range; others are skipped): a backend may read ahead what the state lookups of these keys
     * will read, so that the memory reads of several records overlap instead of each lookup waiting for
     * its own. Changes no state and not the current key. Called by the task thread for a group of
     * records at a time, see {@link #prefetchGroupSize()}. The default does nothing.
     */
    default void prefetch(int[] keyHashes, int[] keyGroups, int count) {}

    /**
     * How many keys one {@link #prefetch} call should cover; 0 when this backend does not prefetch, so
     * that callers can skip preparing the keys at all. The default is 0.
     */
    default int prefetchGroupSize() {
        return 0;
    }

    K getCurrentKey();

    /**
     * The current key as an object to keep beyond the current record, in a timer or a new entry of
     * per-window state: an equal key this backend already holds, when it has one, so that a key that
     * recurs in many windows and timers is kept once rather than as every record's own copy. Equal to
     * {@link #getCurrentKey()} (by {@code equals}); null when no key is set. The default returns the
     * current key itself.
     */
    default K retainedCurrentKey() {
        return getCurrentKey();
    }

    int getCurrentKeyGroupIndex();

    KeyGroupRange getKeyGroupRange();

    /** The max parallelism: how many key groups exist in total. */
    int getNumberOfKeyGroups();

    TypeSerializer<K> getKeySerializer();

    /**
     * The state described by {@code descriptor} in namespaces serialized by
     * {@code namespaceSerializer}; created on first call, restored entries included. The returned
     * object also implements the matching {@code Internal*State} interface.
     */
    <N, S extends State, T> S getOrCreateKeyedState(
            TypeSerializer<N> namespaceSerializer, StateDescriptor<S, T> descriptor) throws Exception;

    /** The keys that have an entry in state {@code stateName} under {@code namespace}. */
    <N> Stream<K> getKeys(String stateName, N namespace);

    /**
     * The synchronous phase of a snapshot: captures every state and timer of the key groups in
     * {@code range} (which must lie within this backend's range) as they are now, for the returned
     * snapshot to write out later from any thread. Task thread only. Short and bounded: it serializes
     * nothing and copies no state entries (the heap store shares its tables copy-on-write, RocksDB
     * takes a native snapshot); what it does copy is each store's to document (the heap store's timer
     * references, RocksDB's write-back cache). Changes made after it returns are not in the snapshot.
     *
     * @throws IllegalArgumentException if {@code range} is not within this backend's key groups
     * @throws IOException if the store cannot capture its state (e.g. flushing a cache fails)
     */
    KeyedStateSnapshot snapshotSync(KeyGroupRange range) throws IOException;

    /**
     * The synchronous phase of the snapshot for checkpoint {@code checkpointId}: everything this backend
     * holds. A store may take it incrementally when {@code options} allow ({@link
     * dev.runnel.runtime.checkpoint.CheckpointOptions#mayBeIncremental()}) and it is configured to
     * ({@code state.backend.incremental}); a savepoint in the NATIVE format asks for the store's own format,
     * otherwise the canonical one. By default, the canonical snapshot of the whole range. Task thread only.
     */
    default KeyedStateSnapshot snapshotForCheckpoint(long checkpointId,
            dev.runnel.runtime.checkpoint.CheckpointOptions options) throws IOException {
        return snapshotSync(getKeyGroupRange());
    }

    /** Checkpoint {@code checkpointId} completed: an incremental store may now build on it. Task thread only. */
    default void notifyCheckpointComplete(long checkpointId) throws IOException {}

    /** Checkpoint {@code checkpointId} was aborted. Task thread only. */
    default void notifyCheckpointAborted(long checkpointId) throws IOException {}

    /**
     * Writes every state and timer of the key groups in {@code range} (which must lie within this
     * backend's range) to {@code out}, and returns where each key group starts, relative to the
     * first byte written: both phases of a snapshot, on the calling thread.
     */
    default KeyGroupRangeOffsets snapshot(KeyGroupRange range, OutputStream out) throws IOException {
        KeyedStateSnapshot snapshot = snapshotSync(range);
        try {
            return snapshot.writeTo(out);
        } finally {
            snapshot.release();
        }
    }

    /**
     * The number of entries over all keyed states, keys and namespaces (timers not included); for
     * tests. Stores that cannot count cheaply refuse.
     */
    default int numKeyValueStateEntries() {
        throw new UnsupportedOperationException(getClass().getSimpleName()
                + " does not count its state entries; use the heap state backend to test with numKeyedStateEntries()");
    }

    @Override
    void close() throws IOException;
}
