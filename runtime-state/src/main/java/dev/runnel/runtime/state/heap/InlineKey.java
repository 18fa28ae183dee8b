package dev.runnel.runtime.state.heap;

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
 * (and a string's length), so keys of different types never share a form. Forms are not persisted: a
 * snapshot holds the keys, and a restored map makes their forms again.
 *
 * <p>A pure function of the key's content, safe from any thread; it allocates nothing.
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
