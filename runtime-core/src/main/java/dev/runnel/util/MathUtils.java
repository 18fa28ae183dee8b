package dev.runnel.util;

/**
 * Integer helpers whose results other parts of the system persist or exchange, so they must never
 * change: key groups, and therefore which subtask owns which key, depend on {@link #murmurHash(int)}.
 *
 * <p>Every method is a pure function, safe from any thread.
 */
public final class MathUtils {

    private MathUtils() {}

    /**
     * Scrambles a Java hash code into a non-negative int, the same as Apache Flink's
     * {@code MathUtils.murmurHash(int)}: one 4-byte block of MurmurHash3 (x86, 32-bit, seed 0)
     * followed by its finalizer, then folded to a non-negative value ({@code Integer.MIN_VALUE}
     * becomes 0). Object hash codes are weak in their low bits; this spreads them before a modulo.
     */
    public static int murmurHash(int code) {
        int h = code * 0xcc9e2d51;
        h = Integer.rotateLeft(h, 15);
        h *= 0x1b873593;
        h = Integer.rotateLeft(h, 13);
        h = h * 5 + 0xe6546b64;
        h ^= 4; // the input length in bytes
        h = fmix(h);
        if (h >= 0) {
            return h;
        }
        return h == Integer.MIN_VALUE ? 0 : -h;
    }

    /** The MurmurHash3 32-bit finalizer: every input bit affects every output bit. */
    public static int fmix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** The smallest power of two not below {@code x}, for {@code 0 < x <= 2^30}. */
    public static int roundUpToPowerOfTwo(int x) {
        Preconditions.checkArgument(x > 0 && x <= (1 << 30), "x must be in (0, 2^30], was %s", x);
        return x == 1 ? 1 : Integer.highestOneBit(x - 1) << 1;
    }
}
