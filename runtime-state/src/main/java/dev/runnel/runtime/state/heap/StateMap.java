package dev.runnel.runtime.state.heap;

import java.util.Arrays;

/**
 * One key group's entries of one state: a chained hash map from (key, namespace) to the stored
 * value, written by hand so that lookups allocate nothing (no composite key object) and compare the
 * cached hash before calling {@code equals}.
 *
 * <p>Entries are stable objects: an entry found once stays valid (and can be updated in place)
 * until it is removed, across resizes. Keys and namespaces are held by reference, as in Flink's heap
 * backend, so they must not be mutated while stored.
 *
 * <p>Task thread only.
 */
final class StateMap<K, N, S> {

    /** One mapping; {@code state} is updated in place. */
    static final class Entry<K, N, S> {
        final K key;
        final N namespace;
        final int hash;
        S state;
        /** The value's bits when the table keeps primitives in place (see {@link PrimitiveValue}). */
        long bits;
        Entry<K, N, S> next;

        Entry(K key, N namespace, int hash, S state, Entry<K, N, S> next) {
            this.key = key;
            this.namespace = namespace;
            this.hash = hash;
            this.state = state;
            this.next = next;
        }
    }

    private static final int INITIAL_CAPACITY = 16;
    private static final int MAX_CAPACITY = 1 << 30;

    private Entry<K, N, S>[] table;
    private int size;
    private int threshold;

    @SuppressWarnings("unchecked")
    StateMap() {
        table = (Entry<K, N, S>[]) new Entry<?, ?, ?>[INITIAL_CAPACITY];
        threshold = INITIAL_CAPACITY * 3 / 4;
    }

    /** Spreads the key's and the namespace's hash codes over all bits. */
    static int hash(int keyHash, int namespaceHash) {
        int h = keyHash * 31 + namespaceHash;
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        return h;
    }

    int size() {
        return size;
    }

    /** The entry of (key, namespace), or null. */
    Entry<K, N, S> get(K key, N namespace, int hash) {
        Entry<K, N, S> e = table[hash & (table.length - 1)];
        while (e != null) {
            if (e.hash == hash && (e.key == key || e.key.equals(key))
                    && (e.namespace == namespace || e.namespace.equals(namespace))) {
                return e;
            }
            e = e.next;
        }
        return null;
    }

    /** Adds a mapping that the caller knows is absent, and returns its entry. */
    Entry<K, N, S> insert(K key, N namespace, int hash, S state) {
        if (size >= threshold) {
            resize();
        }
        int index = hash & (table.length - 1);
        Entry<K, N, S> e = new Entry<>(key, namespace, hash, state, table[index]);
        table[index] = e;
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
        int index = hash & (table.length - 1);
        Entry<K, N, S> previous = null;
        Entry<K, N, S> e = table[index];
        while (e != null) {
            if (e.hash == hash && (e.key == key || e.key.equals(key))
                    && (e.namespace == namespace || e.namespace.equals(namespace))) {
                if (previous == null) {
                    table[index] = e.next;
                } else {
                    previous.next = e.next;
                }
                e.next = null;
                size--;
                return e;
            }
            previous = e;
            e = e.next;
        }
        return null;
    }

    /** The buckets, for iteration: follow each bucket's {@code next} chain. Do not modify. */
    Entry<K, N, S>[] buckets() {
        return table;
    }

    void clear() {
        Arrays.fill(table, null);
        size = 0;
    }

    @SuppressWarnings("unchecked")
    private void resize() {
        Entry<K, N, S>[] old = table;
        if (old.length >= MAX_CAPACITY) {
            threshold = Integer.MAX_VALUE;
            return;
        }
        Entry<K, N, S>[] grown = (Entry<K, N, S>[]) new Entry<?, ?, ?>[old.length * 2];
        int mask = grown.length - 1;
        for (Entry<K, N, S> head : old) {
            Entry<K, N, S> e = head;
            while (e != null) {
                Entry<K, N, S> next = e.next;
                int index = e.hash & mask;
                e.next = grown[index];
                grown[index] = e;
                e = next;
            }
        }
        table = grown;
        threshold = grown.length * 3 / 4;
    }
}
