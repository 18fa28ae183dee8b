package dev.runnel.runtime.state.heap;

/**
 * The current key of a heap backend, with what every state lookup needs from it, computed once per
 * {@code setCurrentKey}: the key's hash code, its key group and that key group's index in the
 * backend's range. Shared by the backend (which writes it) and its state tables (which read it).
 *
 * <p>Task thread only. Plain fields on purpose: this is read on every state access.
 */
final class HeapKeyContext<K> {

    K key;
    int keyHash;
    int keyGroup;
    /** {@code keyGroup} minus the first key group of the backend's range. */
    int keyGroupOffset;
    /**
     * Changes on every {@code setCurrentKey}, even to an equal or the same key object, so that a
     * cached lookup is never reused for a key object that was mutated and set again.
     */
    int version;
}
