package dev.runnel.flinkpeer;

/**
 * The order-independent result fingerprints of the benchmark workloads (docs/BENCHMARKS.md, "The
 * workloads"), the same functions as Runnel's {@code dev.runnel.examples.bench.Checksums}, so that a
 * Flink result and a Runnel result can be compared bit for bit. A fingerprint is a sum of entries
 * modulo 2^64.
 */
public final class Checksums {

    private Checksums() {}

    /** The SplitMix64 finalizer. */
    public static long mix64(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** {@code mix64((h(w) << 32) ^ c)}, with {@code h} Java's {@code String.hashCode()} widened to 64 bits. */
    public static long wordEntry(String word, long count) {
        return mix64(((long) word.hashCode() << 32) ^ count);
    }

    /** {@code mix64(mix64((h(k) << 32) ^ c) ^ start)}. */
    public static long windowEntry(String key, long windowStart, long count) {
        return mix64(mix64(((long) key.hashCode() << 32) ^ count) ^ windowStart);
    }

    /** 16 lower-case hex digits. */
    public static String hex(long v) {
        return String.format("%016x", v);
    }
}
