package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.BigDecSerializer;
import dev.runnel.api.common.typeutils.base.BigIntSerializer;
import dev.runnel.api.common.typeutils.base.BooleanSerializer;
import dev.runnel.api.common.typeutils.base.ByteSerializer;
import dev.runnel.api.common.typeutils.base.CharSerializer;
import dev.runnel.api.common.typeutils.base.DoubleSerializer;
import dev.runnel.api.common.typeutils.base.FloatSerializer;
import dev.runnel.api.common.typeutils.base.InstantSerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LocalDateSerializer;
import dev.runnel.api.common.typeutils.base.LocalDateTimeSerializer;
import dev.runnel.api.common.typeutils.base.LocalTimeSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.ShortSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.api.common.typeutils.base.UUIDSerializer;

/**
 * One instance of each recently used key, so that what a heap backend keeps of a key beyond one record
 * (an entry of per-window state, a timer) refers to a shared key object instead of the copy that came
 * with each record. A tumbling window per key keeps the key of the record that opened it until the
 * window fires; with keys interned, those per-record copies die young (young collections copy less),
 * and the key a firing timer and its window function read is one the task thread used moments ago.
 *
 * <p>Bounded: a key is looked for in {@link #WAYS} neighbouring slots of its hash; when all of them
 * hold other keys, it replaces one of them (and the replaced key, if it comes again, is then kept as
 * its own instance, as without interning). The table starts small and doubles, up to
 * {@link #MAX_SLOTS}, while keys keep replacing each other.
 *
 * <p>Only for key types whose instances cannot change ({@link #internable}): a mutable key held here
 * could later be changed into an equal of another key. Task thread only.
 *
 * @param <K> the key type
 */
final class KeyInterner<K> {

    static final int INITIAL_SLOTS = 1 << 10;
    /** 64 Ki keys: at most 512 KiB of table per backend (references compressed), besides the keys. */
    static final int MAX_SLOTS = 1 << 16;
    /** The slots a key may be kept in; neighbours, so that a lookup reads one or two cache lines. */
    static final int WAYS = 4;

    /** Never has a hole before a kept key in the slots of its hash: slots are only filled or replaced. */
    private Object[] slots = new Object[INITIAL_SLOTS];
    /** The hash code of the key in each slot, so that a lookup reads only the key it is likely to match. */
    private int[] hashes = new int[INITIAL_SLOTS];
    /** Keys that replaced another since the table last grew. */
    private int replacements;

    /** An interner for keys of this serializer's type, or null if instances of that type can change. */
    static <K> KeyInterner<K> forKeys(TypeSerializer<K> keySerializer) {
        return internable(keySerializer) ? new KeyInterner<>() : null;
    }

    /** Whether the serializer's type is one whose instances never change (strings, boxed primitives, ...). */
    static boolean internable(TypeSerializer<?> s) {
        return s instanceof StringSerializer || s instanceof LongSerializer || s instanceof IntSerializer
                || s instanceof ShortSerializer || s instanceof ByteSerializer || s instanceof CharSerializer
                || s instanceof BooleanSerializer || s instanceof DoubleSerializer || s instanceof FloatSerializer
                || s instanceof BigIntSerializer || s instanceof BigDecSerializer || s instanceof UUIDSerializer
                || s instanceof InstantSerializer || s instanceof LocalDateSerializer
                || s instanceof LocalTimeSerializer || s instanceof LocalDateTimeSerializer;
    }

    /**
     * The instance kept for keys equal to {@code key}, or {@code key} itself (then kept from now on).
     *
     * @param hash {@code key.hashCode()}
     */
    @SuppressWarnings("unchecked")
    K intern(K key, int hash) {
        Object[] s = slots;
        int[] h = hashes;
        int mask = s.length - 1;
        int home = spread(hash);
        for (int way = 0; way < WAYS; way++) {
            int i = (home + way) & mask;
            Object held = s[i];
            if (held == null) {
                s[i] = key;
                h[i] = hash;
                return key;
            }
            if (h[i] == hash && (held == key || held.equals(key))) {
                return (K) held;
            }
        }
        int i = (home + (replacements & (WAYS - 1))) & mask; // every way taken: replace one, in turn
        s[i] = key;
        h[i] = hash;
        if (++replacements > s.length >> 2 && s.length < MAX_SLOTS) {
            grow();
        }
        return key;
    }

    /** How many slots the table has now; for tests. */
    int capacity() {
        return slots.length;
    }

    private void grow() {
        Object[] oldSlots = slots;
        int[] oldHashes = hashes;
        Object[] bigger = new Object[oldSlots.length << 1];
        int[] biggerHashes = new int[bigger.length];
        int mask = bigger.length - 1;
        for (int k = 0; k < oldSlots.length; k++) {
            if (oldSlots[k] == null) {
                continue;
            }
            int home = spread(oldHashes[k]);
            for (int way = 0; way < WAYS; way++) {
                int i = (home + way) & mask;
                if (bigger[i] == null) {
                    bigger[i] = oldSlots[k];
                    biggerHashes[i] = oldHashes[k];
                    break;
                }
            }
        }
        slots = bigger;
        hashes = biggerHashes;
        replacements = 0;
    }

    /** Spreads the hash's bits so that hash codes differing only in high bits (Long, Double) use distinct slots. */
    private static int spread(int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 15);
    }
}
