package dev.runnel.runtime.state.heap;

import java.util.Arrays;

/**
 * One key group's values of a per-key value state (the void namespace) whose values are boxed primitives
 * ({@link PrimitiveValue}): an open-addressing hash map from key to the value's bits in three parallel
 * arrays, with no object per mapping.
 *
 * <pre>
 *   hashes: [ 0 | h1 | h2 | 0 ]   0 marks an empty position
 *   keys:   [ - | k1 | k2 | - ]
 *   bits:   [ - | v1 | v2 | - ]
 * </pre>
 *
 * <p>Why not {@link StateMap}'s entry objects: a lookup there reads the table, the entry and then the key, each
 * load waiting for the one before; here the key is read straight from the array at the position the hash
 * found, one dependent load fewer, and the value sits in an array the lookup does not wait on. The mapping
 * costs 16 bytes of arrays instead of a 40-byte entry besides, which young collections copy and the first
 * touch of the heap pays for while a job builds its state.
 *
 * <p>Keys with an {@link InlineKey inline form} (short strings, integers, longs) also have that form in a fourth
 * array, made at the first such key: a lookup of such a key compares forms and never reads a stored key object,
 * so it waits on the map's arrays only, not also on a key somewhere else in the heap. Other keys have
 * {@link InlineKey#NONE} there and are compared with {@code equals}.
 *
 * <p>Linear probing with removal by shifting later positions of the run back, as {@link StateMap}.
 * Positions are stable until the next insert that grows the map or the next removal, so a caller may keep one
 * for the read-then-write of a single key.
 *
 * <p>Snapshots: {@link #share()} hands the keys and bits arrays to a snapshot as they are, in O(1); the map
 * copies all three arrays before its next change of any kind (a value write included), so what the snapshot
 * holds never changes. Keys are held by reference and must not be mutated while stored.
 *
 * <p>Task thread only; what {@link #share()} returns may be read from any thread.
 */
final class PrimitiveStateMap {

    private static final int INITIAL_CAPACITY = 16;

    private int[] hashes;
    private Object[] keys;
    private long[] bits;
    /** The keys' inline forms (NONE for keys without one); null until the first key with one is added. */
    private long[] inline;
    private int mask;
    private int size;
    private int threshold;
    /** Whether the arrays were given to a snapshot, which must then never see them change. */
    private boolean shared;

    PrimitiveStateMap() {
        newArrays(INITIAL_CAPACITY);
    }

    /** The keys and value bits of a map at the moment it was shared; null keys mark empty positions. */
    record Shared(Object[] keys, long[] bits) {}

    private void newArrays(int capacity) {
        hashes = new int[capacity];
        keys = new Object[capacity];
        bits = new long[capacity];
        inline = null;
        mask = capacity - 1;
        threshold = StateMap.thresholdFor(capacity);
        shared = false;
    }

    int size() {
        return size;
    }

    /** The number of positions (for tests of the layout). */
    int capacity() {
        return mask + 1;
    }

    /**
     * The position of {@code key}, whose map hash is {@code hash} (see {@link StateMap#hash}) and inline form
     * {@code inlineKey} ({@link InlineKey#of}), or -1.
     */
    int find(Object key, int hash, long inlineKey) {
        int[] h = hashes;
        int m = mask;
        int i = hash & m;
        int slotHash;
        if (inlineKey != InlineKey.NONE) {
            long[] forms = inline;
            if (forms == null) {
                return -1; // no key with an inline form was added, and only such a key can equal this one
            }
            while ((slotHash = h[i]) != 0) {
                if (forms[i] == inlineKey) {
                    return i;
                }
                i = (i + 1) & m;
            }
            return -1;
        }
        while ((slotHash = h[i]) != 0) {
            if (slotHash == hash) {
                Object k = keys[i];
                if (k == key || k.equals(key)) {
                    return i;
                }
            }
            i = (i + 1) & m;
        }
        return -1;
    }

    /** The value bits at {@code position}, a position {@link #find} or {@link #insert} returned. */
    long bitsAt(int position) {
        return bits[position];
    }

    /** The key at {@code position}, or null for an empty one. */
    Object keyAt(int position) {
        return keys[position];
    }

    /** Writes the value bits at {@code position}, a position {@link #find} or {@link #insert} returned. */
    void setBits(int position, long value) {
        if (shared) {
            unshare();
        }
        bits[position] = value;
    }

    /** Adds a mapping the caller knows is absent, {@code inlineKey} being the key's inline form; returns its position. */
    int insert(Object key, int hash, long inlineKey, long value) {
        if (size >= threshold) {
            resize();
        } else if (shared) {
            unshare();
        }
        size++;
        return place(key, hash, inlineKey, value);
    }

    /** Puts a mapping at the first free position from its hash's home; returns that position. */
    private int place(Object key, int hash, long inlineKey, long value) {
        int i = hash & mask;
        while (hashes[i] != 0) {
            i = (i + 1) & mask;
        }
        hashes[i] = hash;
        keys[i] = key;
        bits[i] = value;
        if (inline != null) {
            inline[i] = inlineKey; // also NONE: the position may hold the form of a key removed before
        } else if (inlineKey != InlineKey.NONE) {
            inline = new long[mask + 1];
            inline[i] = inlineKey;
        }
        return i;
    }

    /** Sets the value of {@code key}, adding the mapping if absent. */
    void put(Object key, int hash, long value) {
        long inlineKey = InlineKey.of(key);
        int position = find(key, hash, inlineKey);
        if (position >= 0) {
            setBits(position, value);
        } else {
            insert(key, hash, inlineKey, value);
        }
    }

    /** Removes the mapping at {@code position}, a position {@link #find} returned; later positions may move. */
    void removeAt(int position) {
        if (shared) {
            unshare();
        }
        int[] h = hashes;
        int m = mask;
        int hole = position;
        int i = hole;
        while (true) {
            i = (i + 1) & m;
            int candidate = h[i];
            if (candidate == 0) {
                break;
            }
            if (LinearProbing.canMoveBack(candidate & m, hole, i)) {
                h[hole] = candidate;
                keys[hole] = keys[i];
                bits[hole] = bits[i];
                if (inline != null) {
                    inline[hole] = inline[i];
                }
                hole = i;
            }
        }
        h[hole] = 0;
        keys[hole] = null;
        size--;
    }

    /** Prefetch, first step: the hash at the position a lookup of {@code hash} starts at (0 for empty). */
    int touchPosition(int hash) {
        return hashes[hash & mask];
    }

    /**
     * Prefetch, second step: when the home position of {@code hash} holds that hash ({@code slotHash}, from
     * {@link #touchPosition}), reads what a lookup there compares, the key's inline form or else the key
     * itself through its class word (a composite key's {@code hashCode()} would compute again), and the
     * value's bits; returns a value derived from the reads.
     */
    int touchKey(int hash, int slotHash) {
        if (slotHash != hash) {
            return slotHash;
        }
        int i = hash & mask;
        long form = inline == null ? InlineKey.NONE : inline[i];
        int compared = form != InlineKey.NONE ? (int) form : keys[i].getClass() == Object.class ? 1 : 0;
        return compared + (int) bits[i];
    }

    /**
     * The keys and bits as they are now, for a snapshot; never modify them. They stay as they are however the
     * map changes later: the map copies its arrays before its next change.
     */
    Shared share() {
        shared = true;
        return new Shared(keys, bits);
    }

    private void unshare() {
        // The inline forms are never shared: a snapshot reads keys and bits only.
        hashes = hashes.clone();
        keys = keys.clone();
        bits = bits.clone();
        shared = false;
    }

    void clear() {
        if (shared) {
            newArrays(mask + 1);
        } else {
            Arrays.fill(hashes, 0);
            Arrays.fill(keys, null);
        }
        size = 0;
    }

    private void resize() {
        if (mask + 1 >= StateMap.MAX_CAPACITY) {
            throw new IllegalStateException("a state map cannot hold more than " + threshold
                    + " entries per key group; raise the max parallelism to spread keys over more key groups");
        }
        int[] oldHashes = hashes;
        Object[] oldKeys = keys;
        long[] oldBits = bits;
        long[] oldInline = inline;
        newArrays((mask + 1) * 2);
        for (int j = 0; j < oldHashes.length; j++) {
            if (oldHashes[j] != 0) {
                place(oldKeys[j], oldHashes[j], oldInline == null ? InlineKey.NONE : oldInline[j], oldBits[j]);
            }
        }
    }
}
