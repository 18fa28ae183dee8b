package dev.runnel.runtime.state.heap;

import java.util.Arrays;

/**
 * One key group's values of a per-key value state (the void namespace) whose values are boxed primitives
 * ({@link PrimitiveValue}): an open-addressing hash map from key to the value's bits, with no object per
 * mapping. Each position takes three consecutive {@code long}s of one array, the key's map hash, its
 * {@link InlineKey inline form} and the value's bits, and one slot of a parallel array of keys, which holds
 * the key object only for a key without a form:
 *
 * <pre>
 *   slots: [ 0 - - | h1 f1 v1 | h2 NONE v2 | 0 - - ]   hash 0 marks an empty position
 *   keys:  [   -   |   null   |     k2     |   -   ]   k1 is its form f1; k2 has none
 * </pre>
 *
 * <p>Why this layout: a lookup is a wait on memory, and each array it reads at a random position is a cache
 * miss of its own. Here one miss (sometimes two adjacent lines) brings the hash that decides whether the
 * position holds the key, the form that identifies it and the value. A key with an inline form (short strings,
 * integers, longs) is matched by its form and its stored key object is never read; other keys have
 * {@link InlineKey#NONE} there and are compared with {@code equals} once their hash matches. {@link StateMap}'s
 * entry objects would add a dependent load per lookup (the table, then the entry, then the key) and a 40-byte
 * object per mapping, which young collections copy and the first touch of the heap pays for.
 *
 * <p>Why a key with a form is not kept: its form is its whole content ({@link InlineKey#toKey} makes an equal key
 * from it), and the key object would be the map's only long-lived object per mapping. A job that meets its keys as
 * it starts (W1: 100,000 words, all in its first second) had every key string and its bytes copied by the first
 * young collections; the length of those pauses decides how far G1 grows the heap, and a cold run pays the first
 * touch of that heap page by page (docs/BENCHMARKS.md, thirty-third session). {@link #keyAt} and {@link Shared#key}
 * hand out a new equal key for such a mapping: equal, not the instance that was put, as a RocksDB backend's are.
 *
 * <p>Linear probing with removal by shifting later positions of the run back, as {@link StateMap}.
 * Positions are stable until the next insert that grows the map or the next removal, so a caller may keep one
 * for the read-then-write of a single key.
 *
 * <p>Snapshots: {@link #share()} hands both arrays to a snapshot as they are, in O(1); the map copies them
 * before its next change of any kind (a value write included), so what the snapshot holds never changes. Keys
 * without a form are held by reference and must not be mutated while stored.
 *
 * <p>Task thread only; what {@link #share()} returns may be read from any thread.
 */
final class PrimitiveStateMap {

    private static final int INITIAL_CAPACITY = 16;
    /** {@code long}s per position in {@link #slots}, and the offset of each. */
    private static final int STRIDE = 3;
    private static final int HASH = 0;
    private static final int FORM = 1;
    private static final int BITS = 2;

    private long[] slots;
    private Object[] keys;
    private int mask;
    private int size;
    private int threshold;
    /** Whether the arrays were given to a snapshot, which must then never see them change. */
    private boolean shared;

    PrimitiveStateMap() {
        newArrays(INITIAL_CAPACITY);
    }

    /** The keys and value bits of a map at the moment it was shared (read them through {@link #key}). */
    record Shared(Object[] keys, long[] slots) {

        /** The number of positions; {@link #key} is null at the empty ones. */
        int capacity() {
            return keys.length;
        }

        /** The key at {@code position}, or null for an empty one; as {@link PrimitiveStateMap#keyAt}. */
        Object key(int position) {
            return keyAt(keys, slots, position);
        }

        /** The value bits at {@code position}, whose key is {@link #key key(position)}. */
        long bits(int position) {
            return slots[position * STRIDE + BITS];
        }
    }

    private void newArrays(int capacity) {
        slots = new long[capacity * STRIDE];
        keys = new Object[capacity];
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
        long[] s = slots;
        int m = mask;
        int i = hash & m;
        if (inlineKey != InlineKey.NONE) {
            // Equal forms are equal keys, and only a key with a form can equal this one.
            while (s[i * STRIDE + HASH] != 0) {
                if (s[i * STRIDE + FORM] == inlineKey) {
                    return i;
                }
                i = (i + 1) & m;
            }
            return -1;
        }
        long slotHash;
        while ((slotHash = s[i * STRIDE + HASH]) != 0) {
            if ((int) slotHash == hash) {
                Object k = keys[i]; // null where a key with a form sits, which never equals this one
                if (k != null && (k == key || k.equals(key))) {
                    return i;
                }
            }
            i = (i + 1) & m;
        }
        return -1;
    }

    /** The value bits at {@code position}, a position {@link #find} or {@link #insert} returned. */
    long bitsAt(int position) {
        return slots[position * STRIDE + BITS];
    }

    /**
     * The key at {@code position}, or null for an empty one; for a key with an inline form a new equal key each
     * call.
     */
    Object keyAt(int position) {
        return keyAt(keys, slots, position);
    }

    private static Object keyAt(Object[] keys, long[] slots, int position) {
        Object key = keys[position];
        if (key != null || slots[position * STRIDE + HASH] == 0) {
            return key;
        }
        return InlineKey.toKey(slots[position * STRIDE + FORM]);
    }

    /** Writes the value bits at {@code position}, a position {@link #find} or {@link #insert} returned. */
    void setBits(int position, long value) {
        if (shared) {
            unshare();
        }
        slots[position * STRIDE + BITS] = value;
    }

    /**
     * Adds a mapping the caller knows is absent, {@code inlineKey} being the key's inline form; returns its
     * position.
     */
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
        long[] s = slots;
        int i = hash & mask;
        while (s[i * STRIDE + HASH] != 0) {
            i = (i + 1) & mask;
        }
        s[i * STRIDE + HASH] = hash;
        s[i * STRIDE + FORM] = inlineKey;
        s[i * STRIDE + BITS] = value;
        keys[i] = inlineKey == InlineKey.NONE ? key : null;
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
        long[] s = slots;
        int m = mask;
        int hole = position;
        int i = hole;
        while (true) {
            i = (i + 1) & m;
            long candidate = s[i * STRIDE + HASH];
            if (candidate == 0) {
                break;
            }
            if (LinearProbing.canMoveBack((int) candidate & m, hole, i)) {
                System.arraycopy(s, i * STRIDE, s, hole * STRIDE, STRIDE);
                keys[hole] = keys[i];
                hole = i;
            }
        }
        s[hole * STRIDE + HASH] = 0;
        keys[hole] = null;
        size--;
    }

    /** Prefetch, first step: the hash at the position a lookup of {@code hash} starts at (0 for empty). */
    int touchPosition(int hash) {
        return (int) slots[(hash & mask) * STRIDE + HASH];
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
        long form = slots[i * STRIDE + FORM];
        int compared = form != InlineKey.NONE ? (int) form : keys[i].getClass() == Object.class ? 1 : 0;
        return compared + (int) slots[i * STRIDE + BITS];
    }

    /**
     * The keys and slots as they are now, for a snapshot; never modify them. They stay as they are however the
     * map changes later: the map copies its arrays before its next change.
     */
    Shared share() {
        shared = true;
        return new Shared(keys, slots);
    }

    private void unshare() {
        slots = slots.clone();
        keys = keys.clone();
        shared = false;
    }

    void clear() {
        if (shared) {
            newArrays(mask + 1);
        } else {
            Arrays.fill(slots, 0L);
            Arrays.fill(keys, null);
        }
        size = 0;
    }

    private void resize() {
        if (mask + 1 >= StateMap.MAX_CAPACITY) {
            throw new IllegalStateException("a state map cannot hold more than " + threshold
                    + " entries per key group; raise the max parallelism to spread keys over more key groups");
        }
        long[] oldSlots = slots;
        Object[] oldKeys = keys;
        newArrays((mask + 1) * 2);
        for (int j = 0; j < oldKeys.length; j++) {
            int b = j * STRIDE;
            if (oldSlots[b + HASH] != 0) {
                place(oldKeys[j], (int) oldSlots[b + HASH], oldSlots[b + FORM], oldSlots[b + BITS]);
            }
        }
    }
}
