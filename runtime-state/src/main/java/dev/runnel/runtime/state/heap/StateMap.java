package dev.runnel.runtime.state.heap;

import java.util.Arrays;

/**
 * One key group's entries of one state: an open-addressing hash map from (key, namespace) to the
 * stored value, written by hand so that lookups allocate nothing (no composite key object).
 *
 * <pre>
 *   table:   [ 0 . | h1 . | h2 . | 0 . ]   per position a hash (0 marks it empty) and, in the churn
 *                                          layout, the place of its entry in the slab
 *   entries: [  -  |  e1  |  e2  |  -  ]   stable layout: the entry at the same position
 *   slab:    [ e2 | e1 | -- ]              churn layout: the entries; freed places reused, last first
 * </pre>
 *
 * Linear probing; removal shifts later positions of the probe run back (no tombstones). A lookup of a
 * (key, namespace) that is not there touches the table only, usually one cache line.
 *
 * <p>Two layouts, chosen per state by how long its entries live:
 * <ul>
 *   <li><b>stable</b> (per-key state, long-lived entries): the entry sits in an array parallel to the
 *       table, so a hit loads the table and the entry reference independently (no dependent load).
 *   <li><b>churn</b> (per-window state, created and dropped all the time): the table holds slab
 *       places. A new entry goes to the slab place freed last, next to other recent entries, instead of
 *       at a random position of a long-lived array; and removals shift ints, not references. Under G1
 *       each reference store into a long-lived array costs a write barrier and a dirty card that
 *       concurrent refinement must scan — for windowed state that was a quarter of the time.
 * </ul>
 *
 * <p>Entries are stable objects: an entry found once stays valid (and can be updated in place)
 * until it is removed, across resizes and the shifts of other removals. Keys and namespaces are held
 * by reference, as in Flink's heap backend, so they must not be mutated while stored.
 *
 * <p>Snapshots: {@link #share()} hands the array of entries to a snapshot as it is, in O(1); the map
 * then copies that array before its next change of membership (insert, remove, {@link #replace}), so
 * the snapshot's array never changes. The entries themselves are shared too: the {@link StateTable}
 * keeps them unchanged while a snapshot may read them (copy-on-write, see {@link SnapshotVersions}).
 *
 * <p>Task thread only; an array given out by {@link #share()} may be read from any thread.
 */
final class StateMap<K, N, S> {

    /**
     * One mapping; {@code state} is updated in place unless a snapshot may read the entry (then the
     * table replaces it with a copy first). Its hash lives in the map's table only, which keeps an entry
     * at 32 bytes with the snapshot version; a table of primitive values has {@link BitsEntry}s.
     */
    static class Entry<K, N, S> {
        final K key;
        final N namespace;
        S state;
        /** The key's key group, as an offset in the backend's range; set by the {@link StateTable}. */
        int keyGroupOffset;
        /** The snapshot version this entry was created or copied in; set by the {@link StateTable}. */
        int version;

        Entry(K key, N namespace, S state) {
            this.key = key;
            this.namespace = namespace;
            this.state = state;
        }

        /** A new entry of the same key and namespace with {@code newState} (and, for bits, the same bits). */
        Entry<K, N, S> copyWith(S newState) {
            return new Entry<>(key, namespace, newState);
        }
    }

    /**
     * The entry of a table that keeps primitive values in place (see {@link PrimitiveValue}): the value's
     * bits, updated in place like {@code state}, which then only marks the mapping as present. Other tables'
     * entries leave the eight bytes out: every pending window's entry is copied by young collections.
     */
    static final class BitsEntry<K, N, S> extends Entry<K, N, S> {
        long bits;

        BitsEntry(K key, N namespace, S state) {
            super(key, namespace, state);
        }

        @Override
        Entry<K, N, S> copyWith(S newState) {
            BitsEntry<K, N, S> copy = new BitsEntry<>(key, namespace, newState);
            copy.bits = bits;
            return copy;
        }
    }

    private static final int INITIAL_CAPACITY = 16;
    /**
     * The largest capacity a churn map refills at: 64 Ki positions (a 512 KiB table). Beyond it a window
     * grows by doubling as before, so one huge window costs later ones in its map at most this much.
     */
    static final int MAX_REFILL_CAPACITY = 1 << 16;
    static final int MAX_CAPACITY = 1 << 30;

    private final boolean churn;
    /** Whether entries are {@link BitsEntry}s (the table keeps primitive values in place). */
    private final boolean bitsEntries;
    /** log2 of the ints per position: 0 (stable layout: the hash) or 1 (churn layout: hash and slab place). */
    private final int shift;
    /** Position {@code i} holds its hash at {@code i << shift} and (churn layout) its slab place right after. */
    private int[] table;
    private int mask;
    private int size;
    private int threshold;

    /** Stable layout: the entry of position {@code i}. Churn layout: the slab. */
    private Entry<K, N, S>[] entries;
    private int[] freePlaces;
    private int freeCount;
    private int placesUsed;
    /** Whether {@link #entries} was given to a snapshot, which must then never see it change. */
    private boolean shared;
    /**
     * Churn layout: the capacity that held the most entries the map had at once before it last emptied,
     * taken at once by the first insert into the small arrays it started over with (0: none). Windows of
     * one state tend to be alike in size, so the next window here skips the doublings (and their
     * rehashing) the last one went through.
     */
    private int refillCapacity;

    /** @param churn whether entries are short-lived (per-window state): selects the churn layout */
    StateMap(boolean churn) {
        this(churn, false);
    }

    /**
     * @param churn whether entries are short-lived (per-window state): selects the churn layout
     * @param bitsEntries whether to make {@link BitsEntry}s, for a table of primitive values
     */
    StateMap(boolean churn, boolean bitsEntries) {
        this.churn = churn;
        this.bitsEntries = bitsEntries;
        this.shift = churn ? 1 : 0;
        newArrays(INITIAL_CAPACITY);
    }

    /**
     * Empty arrays of {@code capacity} positions, this map's own (a snapshot keeps the old ones); the
     * caller puts back whatever entries it keeps.
     */
    @SuppressWarnings("unchecked")
    private void newArrays(int capacity) {
        shared = false;
        table = new int[capacity << shift];
        mask = capacity - 1;
        threshold = thresholdFor(capacity);
        if (churn) {
            entries = (Entry<K, N, S>[]) new Entry<?, ?, ?>[threshold];
            freePlaces = new int[threshold];
            freeCount = 0;
            placesUsed = 0;
        } else {
            entries = (Entry<K, N, S>[]) new Entry<?, ?, ?>[capacity];
        }
    }

    /** At most 60% full: linear probing stays short. Also {@link PrimitiveStateMap}'s. */
    static int thresholdFor(int capacity) {
        return (int) (capacity * 0.6);
    }

    /** Spreads the key's and the namespace's hash codes over all bits; never 0 (0 marks empty positions). */
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

    /** The number of table positions (for tests of the layout). */
    int capacity() {
        return mask + 1;
    }

    private Entry<K, N, S> at(int position) {
        return churn ? entries[table[(position << 1) + 1]] : entries[position];
    }

    /** The entry of (key, namespace), or null. */
    Entry<K, N, S> get(K key, N namespace, int hash) {
        int[] t = table;
        int m = mask;
        int i = hash & m;
        int slotHash;
        while ((slotHash = t[i << shift]) != 0) {
            if (slotHash == hash) {
                Entry<K, N, S> e = at(i);
                if ((e.key == key || e.key.equals(key)) && (e.namespace == namespace || e.namespace.equals(namespace))) {
                    return e;
                }
            }
            i = (i + 1) & m;
        }
        return null;
    }

    /**
     * Prefetch, first step: reads the table position a lookup of {@code hash} starts at and returns
     * what it holds (0 for empty), for {@link #touchEntry}.
     */
    int touchPosition(int hash) {
        return table[(hash & mask) << shift];
    }

    /**
     * Prefetch, second step: when the home position of {@code hash} holds that hash
     * ({@code slotHash}, from {@link #touchPosition}), reads its entry and the entry's key, the objects
     * the lookup will compare; returns a value derived from the reads, so that they happen. The key is
     * touched through its class word, not its {@code hashCode()}: a composite key (a tuple, a POJO) would
     * compute its hash again just to be read.
     */
    int touchEntry(int hash, int slotHash) {
        if (slotHash != hash) {
            return slotHash;
        }
        Entry<K, N, S> e = at(hash & mask);
        return (e.key.getClass() == Object.class ? 1 : 0) + e.version;
    }

    /** Adds a mapping that the caller knows is absent, and returns its entry. */
    Entry<K, N, S> insert(K key, N namespace, int hash, S state) {
        if (size >= threshold) {
            resize();
        } else if (size == 0 && refillCapacity > mask + 1) {
            newArrays(refillCapacity); // allocated as the window starts to fill, so young, not in an old region
            refillCapacity = 0;
        } else {
            unshare();
        }
        Entry<K, N, S> e = bitsEntries ? new BitsEntry<>(key, namespace, state) : new Entry<>(key, namespace, state);
        place(e, hash);
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
        int[] t = table;
        int m = mask;
        int i = hash & m;
        int slotHash;
        while ((slotHash = t[i << shift]) != 0) {
            if (slotHash == hash) {
                Entry<K, N, S> e = at(i);
                if ((e.key == key || e.key.equals(key)) && (e.namespace == namespace || e.namespace.equals(namespace))) {
                    unshare();
                    if (churn) {
                        int place = t[(i << 1) + 1];
                        entries[place] = null;
                        freePlaces[freeCount++] = place;
                    }
                    deleteAt(i);
                    size--;
                    if (churn && size == 0 && mask + 1 > INITIAL_CAPACITY) {
                        startOver();
                    }
                    return e;
                }
            }
            i = (i + 1) & m;
        }
        return null;
    }

    /**
     * Puts {@code copy} where {@code old}, an entry of this map whose hash is {@code hash}, is; for
     * copy-on-write, so {@code copy} must have the same key and namespace.
     */
    void replace(Entry<K, N, S> old, Entry<K, N, S> copy, int hash) {
        unshare();
        int i = hash & mask;
        int slotHash;
        while ((slotHash = table[i << shift]) != 0) {
            if (slotHash == hash && at(i) == old) {
                if (churn) {
                    entries[table[(i << 1) + 1]] = copy;
                } else {
                    entries[i] = copy;
                }
                return;
            }
            i = (i + 1) & mask;
        }
        throw new IllegalStateException("the entry of key " + old.key + " is not in this map");
    }

    /**
     * The entries, for iteration: skip nulls. Do not modify, and do not change the map while iterating.
     */
    Entry<K, N, S>[] slots() {
        return entries;
    }

    /**
     * The entries as they are now, for a snapshot: skip nulls, never modify. The array stays as it is
     * however the map changes later (the map copies it before its next change of membership).
     */
    Entry<K, N, S>[] share() {
        shared = true;
        return entries;
    }

    /** Gives this map an array of entries of its own if the current one was shared. */
    private void unshare() {
        if (shared) {
            entries = entries.clone();
            shared = false;
        }
    }

    void clear() {
        unshare();
        Arrays.fill(table, 0);
        Arrays.fill(entries, null);
        size = 0;
        freeCount = 0;
        placesUsed = 0;
    }

    /**
     * Churn layout, once the last entry is gone: small new arrays instead of the grown ones, and the grown
     * capacity remembered for the next insert ({@link #refillCapacity}). The next namespace's entries then
     * fill arrays allocated when it starts, fresh in the cache and in a young region, rather than arrays last
     * touched by an earlier window (every position a cache miss, and each reference stored into them a card
     * for G1 to refine once they are old).
     */
    private void startOver() {
        // The slab's high-water mark is the most entries held at once since the arrays were last made.
        int capacity = INITIAL_CAPACITY;
        while (thresholdFor(capacity) < placesUsed && capacity < MAX_REFILL_CAPACITY) {
            capacity <<= 1;
        }
        refillCapacity = capacity;
        newArrays(INITIAL_CAPACITY);
    }

    /** Puts {@code e}, whose hash is {@code hash}, at a free position (and, churn layout, a free slab place). */
    private void place(Entry<K, N, S> e, int hash) {
        int i = hash & mask;
        while (table[i << shift] != 0) {
            i = (i + 1) & mask;
        }
        table[i << shift] = hash;
        if (churn) {
            int place = freeCount > 0 ? freePlaces[--freeCount] : placesUsed++;
            entries[place] = e;
            table[(i << 1) + 1] = place;
        } else {
            entries[i] = e;
        }
    }

    /** Empties position {@code hole}, moving back later positions of the run whose home allows it. */
    private void deleteAt(int hole) {
        int[] t = table;
        int m = mask;
        int i = hole;
        while (true) {
            i = (i + 1) & m;
            int candidate = t[i << shift];
            if (candidate == 0) {
                break;
            }
            int home = candidate & m;
            if (LinearProbing.canMoveBack(home, hole, i)) {
                t[hole << shift] = candidate;
                if (churn) {
                    t[(hole << 1) + 1] = t[(i << 1) + 1];
                } else {
                    entries[hole] = entries[i];
                }
                hole = i;
            }
        }
        t[hole << shift] = 0;
        if (!churn) {
            entries[hole] = null;
        }
    }

    private void resize() {
        if (mask + 1 >= MAX_CAPACITY) {
            throw new IllegalStateException("a state map cannot hold more than " + thresholdFor(MAX_CAPACITY)
                    + " entries per key group; raise the max parallelism to spread keys over more key groups");
        }
        int capacity = (mask + 1) * 2;
        Entry<K, N, S>[] old = entries;
        int oldUsed = churn ? placesUsed : old.length;
        int[] hashes = hashesByPlace(oldUsed);
        newArrays(capacity);
        // Slab order in the churn layout, so that entries made one after the other stay next to each other.
        for (int j = 0; j < oldUsed; j++) {
            if (old[j] != null) {
                place(old[j], hashes[j]);
            }
        }
    }

    /**
     * The hash of the entry in each of the first {@code used} places of {@link #entries} (its
     * positions in the stable layout, its slab places in the churn layout), from the table.
     */
    private int[] hashesByPlace(int used) {
        if (!churn) {
            return table; // parallel to the entries already
        }
        int[] hashes = new int[used];
        for (int i = 0; i <= mask; i++) {
            int hash = table[i << 1];
            if (hash != 0) {
                hashes[table[(i << 1) + 1]] = hash;
            }
        }
        return hashes;
    }
}
