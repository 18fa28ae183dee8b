package dev.runnel.runtime.state.heap;

/**
 * The current key of a heap backend, with what every state lookup needs from it, computed once per
 * {@code setCurrentKey}: the key's hash code, its key group and that key group's index in the backend's
 * range, and on demand its inline form. Shared by the backend (which writes it) and its state tables (which read it).
 *
 * <p>Task thread only. Plain fields on purpose: this is read on every state access.
 */
final class HeapKeyContext<K> {

    K key;
    int keyHash;
    /** {@link #inlineKey()} of the current key once asked for (valid while {@link #inlineKnown}). */
    private long inlineKey;
    private boolean inlineKnown;
    int keyGroup;
    /** {@code keyGroup} minus the first key group of the backend's range. */
    int keyGroupOffset;
    /**
     * Changes on every {@code setCurrentKey}, even to an equal or the same key object, so that a
     * cached lookup is never reused for a key object that was mutated and set again.
     */
    int version;
    /** Interns the keys that entries of per-window state and timers keep; null when keys are kept as given. */
    KeyInterner<K> interner;
    /** {@link #retainedKey()} of the current key once asked for; null until then (reset with the key). */
    K retained;

    /** Sets the current key, with its hash code and key group. */
    void set(K newKey, int hash, int newKeyGroup, int newKeyGroupOffset) {
        key = newKey;
        keyHash = hash;
        inlineKnown = false;
        keyGroup = newKeyGroup;
        keyGroupOffset = newKeyGroupOffset;
        retained = null;
        version++;
    }

    /**
     * The current key's {@link InlineKey inline form}, or {@link InlineKey#NONE}: made on the first call per
     * key, so that a task whose states never look it up (window state, timers only) does not pay for it.
     */
    long inlineKey() {
        if (!inlineKnown) {
            inlineKey = InlineKey.of(key);
            inlineKnown = true;
        }
        return inlineKey;
    }

    /**
     * The current key as the object to keep in a new entry or timer: the interned instance equal to it
     * (interned on first call per key), or the key itself without an interner; null without a key.
     */
    K retainedKey() {
        K r = retained;
        if (r == null && key != null) {
            r = interner == null ? key : interner.intern(key, keyHash);
            retained = r;
        }
        return r;
    }
}
