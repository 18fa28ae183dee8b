package dev.runnel.runtime.state;

import java.io.IOException;
import java.io.Serializable;

/**
 * A written keyed-state snapshot of some key groups of one operator's subtask. Two kinds exist: a
 * {@link KeyGroupsStateHandle} (Runnel's backend-independent format in one blob, with where each key group
 * starts, readable by either store at any parallelism) and a store's native form (the RocksDB store's
 * incremental SST files). Restores ask {@link #getKeyGroupRange()} which key groups a handle holds and
 * read only the ones they own.
 *
 * <p>Immutable; the bytes it points to must outlive every restore that uses it.
 */
public interface KeyedStateHandle extends Serializable {

    /** The key groups this snapshot holds. */
    KeyGroupRange getKeyGroupRange();

    /** The size of the snapshot in bytes (for an incremental one: of everything it refers to). */
    long getStateSize();

    /** Where the snapshot lives, for error messages. */
    String describe();

    /**
     * Registers the state this handle shares with other checkpoints under checkpoint {@code checkpointId}
     * and refers from then on to the registry's copies. Nothing to do for a handle that shares nothing
     * (the default); see {@link SharedStateRegistry} for when this is called.
     */
    default void registerSharedStates(SharedStateRegistry registry, long checkpointId) {}

    /**
     * Deletes what this handle alone owns. Files shared between checkpoints (incremental RocksDB) are
     * not deleted here but by the shared state registry once no retained checkpoint uses them.
     */
    void discardState() throws IOException;
}
