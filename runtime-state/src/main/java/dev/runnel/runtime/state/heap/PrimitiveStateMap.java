package dev.runnel.runtime.state.heap;

import java.util.Arrays;

/**
 * The values of a per-key value state (the void namespace) whose values are boxed primitives
 * ({@link PrimitiveValue}) in a contiguous range of key groups: an open-addressing hash map from key to the
 * value's bits, with no object per mapping. Each position takes three consecutive {@code long}s of one array,
 * its hash word (the key's map hash in the low half, the key's key group in the high half, as an offset in the
 * backend's range), the key's {@link InlineKey inline form} and the value's bits, and one slot of a parallel
 * array of keys, which holds the key object only for a key without a form:
 *
 * <pre>
 *   slots: [ 0 - - | g1:h1 f1 v1 | g2:h2 NONE v2 | 0 - - ]   hash 0 marks an empty position
 *   keys:  [   -   |     null    |       k2      |   -   ]   k1 is its form f1; k2 has none
 * </pre>
 *
 * <p>Why several key groups share a map: a map per key group makes a small state many small arrays (W1: 64
 * maps of some 56 KB in each of its two subtasks), which every young collection copies until they are promoted.
 * In a cold run those copies lengthen the first collections' pauses, and G1 answers long early pauses by doubling
 * the heap, whose first touch the run then pays page by page (docs/BENCHMARKS.md, thirty-fifth session). One map's
 * arrays of a megabyte or more are humongous objects, which young collections never copy. The {@link StateTable}
 * starts each state with one map for its whole range and splits a map's key groups in halves once it would grow
 * beyond {@link #MAX_SHARED_CAPACITY} positions, so that a resize, or the copy a snapshot causes, moves a bounded
 * amount at once; a map of one key group grows as far as it needs.
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
    /**
     * The most positions a map of several key groups takes (24 MiB of slots); one that would grow beyond
     * splits instead ({@link #split}).
     */
    static final int MAX_SHARED_CAPACITY = 1 << 20;
    /** {@code long}s per position in {@link #slots}, and the offset of each. */
    private static final int STRIDE = 3;
    private static final int HASH = 0;
    private static final int FORM = 1;
    private static final int BITS = 2;

    /** The key group offsets this map holds (in the backend's range), inclusive. */
    final int firstOffset;
    final int lastOffset;
    private long[] slots;
    private Object[] keys;
    private int mask;
    private int size;
    private int threshold;
    /** Whether the arrays were given to a snapshot, which must then never see them change. */
    private boolean shared;

    /** A map of the key groups at offsets {@code [firstOffset, lastOffset]}. */
    PrimitiveStateMap(int firstOffset, int lastOffset) {
        this(firstOffset, lastOffset, INITIAL_CAPACITY);
    }

    private PrimitiveStateMap(int firstOffset, int lastOffset, int capacity) {
        if (firstOffset < 0 || lastOffset < firstOffset) {
            throw new IllegalArgumentException("bad key group offsets [" + firstOffset + ", " + lastOffset + "]");
        }
        this.firstOffset = firstOffset;
        this.lastOffset = lastOffset;
        newArrays(capacity);
    }

    /** The hash word of a position: the map hash in the low half (never 0), the key group offset in the high. */
    private static long hashWord(int hash, int keyGroupOffset) {
        return (hash & 0xFFFF_FFFFL) | ((long) keyGroupOffset << 32);
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

        /** Whether {@code position} holds no key. */
        boolean isEmpty(int position) {
            return slots[position * STRIDE + HASH] == 0;
        }

        /** The key group offset of the key at {@code position}, which must not be empty. */
        int keyGroupOffset(int position) {
            return (int) (slots[position * STRIDE + HASH] >>> 32);
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
     * The position of {@code key} in the key group at {@code keyGroupOffset}, whose map hash is {@code hash} (see
     * {@link StateMap#hash}) and inline form {@code inlineKey} ({@link InlineKey#of}), or -1. The key group is
     * matched too, so that a map of several key groups answers exactly as a map per key group would.
     */
    int find(Object key, int hash, long inlineKey, int keyGroupOffset) {
        long[] s = slots;
        int m = mask;
        int i = hash & m;
        long word = hashWord(hash, keyGroupOffset);
        long slotWord;
        if (inlineKey != InlineKey.NONE) {
            // Equal forms are equal keys, and only a key with a form can equal this one.
            while ((slotWord = s[i * STRIDE + HASH]) != 0) {
                if (s[i * STRIDE + FORM] == inlineKey && slotWord == word) {
                    return i;
                }
                i = (i + 1) & m;
            }
            return -1;
        }
        while ((slotWord = s[i * STRIDE + HASH]) != 0) {
            if (slotWord == word) {
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
     * Adds a mapping the caller knows is absent, {@code inlineKey} being the key's inline form and
     * {@code keyGroupOffset} (one of this map's) its key group's; returns its position.
     */
    int insert(Object key, int hash, long inlineKey, long value, int keyGroupOffset) {
        if (size >= threshold) {
            resize();
        } else if (shared) {
            unshare();
        }
        size++;
        return place(key, hashWord(hash, keyGroupOffset), inlineKey, value);
    }

    /**
     * Whether the next insert would grow this map of several key groups beyond {@link #MAX_SHARED_CAPACITY}:
     * then the caller {@linkplain #split splits} it first.
     */
    boolean shouldSplitBeforeInsert() {
        return size >= threshold && lastOffset > firstOffset && mask + 1 >= MAX_SHARED_CAPACITY;
    }

    /**
     * Two new maps holding this one's mappings, the lower and the upper half of its key groups, each sized for
     * its share; this map stays as it is (a snapshot may hold its arrays). Positions in the new maps differ.
     */
    PrimitiveStateMap[] split() {
        if (lastOffset == firstOffset) {
            throw new IllegalStateException("a map of one key group cannot be split");
        }
        int middle = firstOffset + (lastOffset - firstOffset + 1) / 2;
        int lowerSize = 0;
        for (int i = 0; i <= mask; i++) {
            long word = slots[i * STRIDE + HASH];
            if (word != 0 && (int) (word >>> 32) < middle) {
                lowerSize++;
            }
        }
        PrimitiveStateMap lower = new PrimitiveStateMap(firstOffset, middle - 1, capacityFor(lowerSize));
        PrimitiveStateMap upper = new PrimitiveStateMap(middle, lastOffset, capacityFor(size - lowerSize));
        for (int i = 0; i <= mask; i++) {
            int b = i * STRIDE;
            long word = slots[b + HASH];
            if (word != 0) {
                PrimitiveStateMap to = (int) (word >>> 32) < middle ? lower : upper;
                to.place(keys[i], word, slots[b + FORM], slots[b + BITS]);
                to.size++;
            }
        }
        return new PrimitiveStateMap[] {lower, upper};
    }

    /** The smallest capacity (a power of two, at least the initial one) whose threshold lies above {@code size}. */
    private static int capacityFor(int size) {
        int capacity = INITIAL_CAPACITY;
        while (StateMap.thresholdFor(capacity) <= size) {
            capacity <<= 1;
        }
        return capacity;
    }

    /** Puts a mapping at the first free position from its hash's home; returns that position. */
    private int place(Object key, long hashWord, long inlineKey, long value) {
        long[] s = slots;
        int i = (int) hashWord & mask;
        while (s[i * STRIDE + HASH] != 0) {
            i = (i + 1) & mask;
        }
        s[i * STRIDE + HASH] = hashWord;
        s[i * STRIDE + FORM] = inlineKey;
        s[i * STRIDE + BITS] = value;
        keys[i] = inlineKey == InlineKey.NONE ? key : null;
        return i;
    }

    /** Sets the value of {@code key}, of the key group at {@code keyGroupOffset}, adding the mapping if absent. */
    void put(Object key, int hash, long value, int keyGroupOffset) {
        long inlineKey = InlineKey.of(key);
        int position = find(key, hash, inlineKey, keyGroupOffset);
        if (position >= 0) {
            setBits(position, value);
        } else {
            insert(key, hash, inlineKey, value, keyGroupOffset);
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
                place(oldKeys[j], oldSlots[b + HASH], oldSlots[b + FORM], oldSlots[b + BITS]);
            }
        }
    }
}
