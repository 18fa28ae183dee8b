package dev.runnel.runtime.state.heap;

import java.nio.charset.StandardCharsets;

/**
 * A key's content in one {@code long}, for the common small keys: a {@code String} of at most
 * {@link #MAX_STRING_LENGTH} characters that all fit in one byte (Latin-1), an {@code Integer}, or a
 * {@code Long} within 56 signed bits. Two keys with inline forms are equal exactly when their forms are,
 * so a map that keeps the form beside each key can match such a key without reading the stored key
 * object, which a lookup would otherwise wait on: the object sits wherever the collector last moved it,
 * a cache miss of its own after the miss on the map's arrays.
 *
 * <p>Every other key (longer or wider strings, other types) has no inline form: {@link #NONE}, and maps
 * compare it with {@code equals} as before. A form is never {@link #NONE}; its top byte tells the type
 * (and a string's length), so keys of different types never share a form. Since a form is the key's whole
 * content, {@link #toKey} makes an equal key from it, which lets a map keep the form instead of the key
 * object. Forms are not persisted: a snapshot holds the keys, and a restored map makes their forms again.
 *
 * <p>Pure functions of their arguments, safe from any thread; {@link #of} allocates nothing.
 */
final class InlineKey {

    /** No inline form: the key is compared with {@code equals}. */
    static final long NONE = 0L;
    /** The longest string with an inline form: seven one-byte characters beside the tag byte. */
    static final int MAX_STRING_LENGTH = 7;

    /** Top-byte tags. Strings take 0x80 | length, so the length is part of the form ("a" and "a\0" differ). */
    private static final long STRING_TAG = 0x80L;
    private static final long INTEGER_TAG = 0x01L;
    private static final long LONG_TAG = 0x02L;
    private static final long LOW_56_BITS = (1L << 56) - 1;

    private InlineKey() {}

    /** The inline form of {@code key}, or {@link #NONE}; {@code key} may be null (NONE). */
    static long of(Object key) {
        if (key instanceof String s) {
            return ofString(s);
        }
        if (key instanceof Integer i) {
            return INTEGER_TAG << 56 | (i & 0xFFFF_FFFFL);
        }
        if (key instanceof Long l) {
            long v = l;
            return (v << 8 >> 8) == v ? LONG_TAG << 56 | (v & LOW_56_BITS) : NONE;
        }
        return NONE;
    }

    /**
     * A new key equal to (and of the same class as) every key whose inline form is {@code form}; {@code form}
     * must be a form {@link #of} returned, not {@link #NONE}.
     */
    static Object toKey(long form) {
        long tag = form >>> 56;
        if ((tag & STRING_TAG) != 0) {
            int length = (int) (tag & ~STRING_TAG);
            byte[] latin1 = new byte[length];
            for (int i = 0; i < length; i++) {
                latin1[i] = (byte) (form >>> (8 * i));
            }
            return new String(latin1, StandardCharsets.ISO_8859_1);
        }
        if (tag == INTEGER_TAG) {
            return Integer.valueOf((int) form);
        }
        if (tag == LONG_TAG) {
            return Long.valueOf(form << 8 >> 8);
        }
        throw new IllegalArgumentException("not an inline key form: 0x" + Long.toHexString(form));
    }

    private static long ofString(String s) {
        int length = s.length();
        if (length > MAX_STRING_LENGTH) {
            return NONE;
        }
        long form = 0;
        for (int i = length - 1; i >= 0; i--) {
            char c = s.charAt(i);
            if (c > 0xFF) {
                return NONE;
            }
            form = form << 8 | c;
        }
        return (STRING_TAG | length) << 56 | form;
    }
}
