package dev.runnel.runtime.state.heap;

import java.util.Arrays;

/**
 * One key group's entries of one state: an open-addressing hash map from (key, namespace) to the
 * stored value, written by hand so that lookups allocate nothing (no composite key object).
 *
 * <pre>
 *   hashes:  [ 0 | h1 | h2 | 0 | h4 ]    0 marks an empty slot; probing reads only this int array
 *   entries: [ - | e1 | e2 | - | e4 ]    an entry is loaded only when its hash matches
 * </pre>
 *
 * Linear probing; removal shifts later entries of the probe run back (no tombstones). A lookup of a
 * (key, namespace) that is not there — the common case for a new window — touches the hash array
 * only, usually one cache line; a chained map would load every entry of the bucket.
 *
 * <p>Entries are stable objects: an entry found once stays valid (and can be updated in place)
 * until it is removed, across resizes and the shifts of other removals. Keys and namespaces are held
 * by reference, as in Flink's heap backend, so they must not be mutated while stored.
 *
 * <p>Task thread only.
 */
final class StateMap<K, N, S> {

    /** One mapping; {@code state} (or {@code bits}) is updated in place. */
    static final class Entry<K, N, S> {
        final K key;
        final N namespace;
        final int hash;
        S state;
        /** The value's bits when the table keeps primitives in place (see {@link PrimitiveValue}). */
        long bits;

        Entry(K key, N namespace, int hash, S state) {
            this.key = key;
            this.namespace = namespace;
            this.hash = hash;
            this.state = state;
        }
    }

    private static final int INITIAL_CAPACITY = 16;
    private static final int MAX_CAPACITY = 1 << 30;

    private Entry<K, N, S>[] entries;
    private int[] hashes;
    private int mask;
    private int size;
    private int threshold;

    @SuppressWarnings("unchecked")
    StateMap() {
        entries = (Entry<K, N, S>[]) new Entry<?, ?, ?>[INITIAL_CAPACITY];
        hashes = new int[INITIAL_CAPACITY];
        mask = INITIAL_CAPACITY - 1;
        threshold = thresholdFor(INITIAL_CAPACITY);
    }

    /** At most 60% full: linear probing stays short. */
    private static int thresholdFor(int capacity) {
        return (int) (capacity * 0.6);
    }

    /** Spreads the key's and the namespace's hash codes over all bits; never 0 (0 marks empty slots). */
    static int hash(int keyHash, int namespaceHash) {
        int h = keyHash * 31 + namespaceHash;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        return h == 0 ? 1 : h;
    }

    int size() {
        return size;
    }

    /** The entry of (key, namespace), or null. */
    Entry<K, N, S> get(K key, N namespace, int hash) {
        int[] h = hashes;
        int m = mask;
        int i = hash & m;
        int slotHash;
        while ((slotHash = h[i]) != 0) {
            if (slotHash == hash) {
                Entry<K, N, S> e = entries[i];
                if ((e.key == key || e.key.equals(key)) && (e.namespace == namespace || e.namespace.equals(namespace))) {
                    return e;
                }
            }
            i = (i + 1) & m;
        }
        return null;
    }

    /** Adds a mapping that the caller knows is absent, and returns its entry. */
    Entry<K, N, S> insert(K key, N namespace, int hash, S state) {
        if (size >= threshold) {
            resize();
        }
        Entry<K, N, S> e = new Entry<>(key, namespace, hash, state);
        place(e);
        size++;
        return e;
    }

    /** Sets the value of (key, namespace), adding the mapping if absent; returns its entry. */
    Entry<K, N, S> put(K key, N namespace, int hash, S state) {
        Entry<K, N, S> e = get(key, namespace, hash);
        if (e != null) {
            e.state = state;
            return e;
        }
        return insert(key, namespace, hash, state);
    }

    /** Removes the mapping of (key, namespace) and returns its entry, or null if there was none. */
    Entry<K, N, S> remove(K key, N namespace, int hash) {
        int[] h = hashes;
        int m = mask;
        int i = hash & m;
        int slotHash;
        while ((slotHash = h[i]) != 0) {
            if (slotHash == hash) {
                Entry<K, N, S> e = entries[i];
                if ((e.key == key || e.key.equals(key)) && (e.namespace == namespace || e.namespace.equals(namespace))) {
                    deleteAt(i);
                    size--;
                    return e;
                }
            }
            i = (i + 1) & m;
        }
        return null;
    }

    /**
     * The slots, for iteration: skip nulls. Do not modify, and do not change the map while iterating.
     */
    Entry<K, N, S>[] slots() {
        return entries;
    }

    void clear() {
        Arrays.fill(entries, null);
        Arrays.fill(hashes, 0);
        size = 0;
    }

    private void place(Entry<K, N, S> e) {
        int i = e.hash & mask;
        while (hashes[i] != 0) {
            i = (i + 1) & mask;
        }
        hashes[i] = e.hash;
        entries[i] = e;
    }

    /** Empties slot {@code hole}, moving back later entries of the run whose home slot allows it. */
    private void deleteAt(int hole) {
        int[] h = hashes;
        int m = mask;
        int i = hole;
        while (true) {
            i = (i + 1) & m;
            int candidate = h[i];
            if (candidate == 0) {
                break;
            }
            int home = candidate & m;
            boolean homeInRange = hole <= i ? (home > hole && home <= i) : (home > hole || home <= i);
            if (!homeInRange) {
                h[hole] = candidate;
                entries[hole] = entries[i];
                hole = i;
            }
        }
        h[hole] = 0;
        entries[hole] = null;
    }

    @SuppressWarnings("unchecked")
    private void resize() {
        Entry<K, N, S>[] old = entries;
        if (old.length >= MAX_CAPACITY) {
            throw new IllegalStateException("a state map cannot hold more than " + thresholdFor(MAX_CAPACITY)
                    + " entries per key group; raise the max parallelism to spread keys over more key groups");
        }
        int capacity = old.length * 2;
        entries = (Entry<K, N, S>[]) new Entry<?, ?, ?>[capacity];
        hashes = new int[capacity];
        mask = capacity - 1;
        threshold = thresholdFor(capacity);
        for (Entry<K, N, S> e : old) {
            if (e != null) {
                place(e);
            }
        }
    }
}
