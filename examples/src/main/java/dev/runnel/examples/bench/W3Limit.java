package dev.runnel.examples.bench;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;

/**
 * The hand-written single-thread limit for W3 (window), as {@code ../shared/peer-bench/limit/W1Limit.java} is for
 * W1: the same per-record work as the streaming job with no framework — the key string {@code "k" + (x mod 10 000)}
 * from the peer's xorshift generator, a {@code HashMap} count per key for the current one-second event-time window
 * (record {@code i} has timestamp {@code i} ms), and at each window's end every key's count folded into the peer's
 * window checksum. Prints the same {@code RESULT} line and checksum as {@code Bench window}; runs twice and reports
 * the second (the first warms the JIT).
 *
 * <pre>
 *   java -cp ... dev.runnel.examples.bench.W3Limit [N]      (N defaults to W3's 10 000 000)
 * </pre>
 */
public final class W3Limit {

    private W3Limit() {}

    /** One key's count in the open window. */
    private static final class Count {
        long value;
    }

    public static void main(String[] args) {
        long n;
        try {
            n = args.length > 0 ? Long.parseLong(args[0]) : 10_000_000L;
        } catch (NumberFormatException e) {
            n = -1;
        }
        if (n < 0 || args.length > 1) {
            System.err.println("usage: W3Limit [N]   (N: records, a whole number >= 0, default 10000000); got: "
                    + String.join(" ", args));
            System.exit(2);
        }
        for (int round = 0; round < 2; round++) {
            long start = System.nanoTime();
            long hash = run(n);
            double seconds = (System.nanoTime() - start) / 1e9;
            if (round == 1) {
                System.out.printf("RESULT workload=window-limit records=%d seconds=%.3f records_per_s=%.0f checksum=%s%n",
                        n, seconds, n / seconds, Checksums.hex(hash));
            }
        }
    }

    /** The window checksum of the first {@code n} records. */
    static long run(long n) {
        HashMap<String, Count> counts = new HashMap<>();
        List<String> keysInWindow = new ArrayList<>();
        long x = XorShiftSource.SEED;
        long windowStart = 0;
        long hash = 0;
        for (long i = 0; i < n; i++) {
            long start = i / Bench.WINDOW_SIZE_MS * Bench.WINDOW_SIZE_MS;
            if (start != windowStart) {
                hash += fire(counts, keysInWindow, windowStart);
                windowStart = start;
            }
            x = XorShiftSource.step(x);
            String key = "k" + Math.floorMod(x, (long) Bench.WINDOW_KEYS);
            Count count = counts.get(key);
            if (count == null) {
                count = new Count();
                counts.put(key, count);
                keysInWindow.add(key);
            }
            count.value++;
        }
        return hash + fire(counts, keysInWindow, windowStart);
    }

    /** Emits every key's count of the window starting at {@code windowStart} and clears the window. */
    private static long fire(HashMap<String, Count> counts, List<String> keys, long windowStart) {
        long hash = 0;
        for (String key : keys) {
            hash += Checksums.windowEntry(key, windowStart, counts.get(key).value);
        }
        counts.clear();
        keys.clear();
        return hash;
    }
}
