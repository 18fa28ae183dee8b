package dev.runnel.examples.bench;

/**
 * The order-independent result fingerprints of the benchmark workloads (docs/BENCHMARKS.md, "The
 * workloads"), so Runnel's results can be compared with Flink's bit for bit. A fingerprint is the
 * sum of entries modulo 2^64.
 */
public final class Checksums {

    private Checksums() {}

    /** The SplitMix64 finalizer. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** {@code mix64((h(w) << 32) ^ c)}. */
    public static long wordEntry(String word, long count) {
        return mix64(((long) word.hashCode() << 32) ^ count);
    }

    /**
     * What a word's rolling count reaching {@code count} adds to the fingerprint: its entry, less the entry of
     * the count before (none before 1), so that the sum over a stream holds each word's last count once.
     */
    public static long rollingWordEntry(String word, long count) {
        return count == 1 ? wordEntry(word, 1) : wordEntry(word, count) - wordEntry(word, count - 1);
    }

    /** {@code mix64(mix64((h(k) << 32) ^ c) ^ start)}. */
    public static long windowEntry(String key, long windowStart, long count) {
        return mix64(mix64(((long) key.hashCode() << 32) ^ count) ^ windowStart);
    }

    public static String hex(long v) {
        return String.format("%016x", v);
    }
}
