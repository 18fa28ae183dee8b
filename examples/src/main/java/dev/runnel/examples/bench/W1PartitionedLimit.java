package dev.runnel.examples.bench;

import java.util.HashMap;

/**
 * What W1 could cost on P threads with no framework at all: the per-record work of
 * {@code ../shared/peer-bench/limit/W1Limit.java} (the word {@code "w" + (x mod 100 000)} from the peer's xorshift
 * generator, a {@code HashMap} count per word, each rolling count folded into the peer's checksum), split by word
 * over P threads that each own the words {@code k} with {@code k mod P == thread}. Every thread steps the whole
 * generator (a few nanoseconds a record) and does the rest only for its own words, so no record crosses threads:
 * no exchange, no batches, no wake-ups, and each thread's map holds a P-th of the words. That is more than any
 * streaming job can have, so its rate is a ceiling for W1 at parallelism P on the same machine.
 *
 * <p>Runs twice in one JVM and prints a {@code RESULT} line for each: the first {@code cold} (the JIT and the
 * heap start from nothing, as in a cold {@code Bench} run and the peer's run), the second {@code warm}. The
 * clock starts before the threads are made and stops when the last has finished. The checksum equals the
 * peer's and {@code Bench wordcount-heap}'s for the same N.
 *
 * <pre>
 *   java -Xmx4g -cp ... dev.runnel.examples.bench.W1PartitionedLimit [N] [P]   (N defaults to 20 000 000, P to 2)
 * </pre>
 */
public final class W1PartitionedLimit {

    private W1PartitionedLimit() {}

    /** One word's count. */
    private static final class Count {
        long value;
    }

    public static void main(String[] args) throws InterruptedException {
        long n;
        int threads;
        try {
            n = args.length > 0 ? Long.parseLong(args[0]) : 20_000_000L;
            threads = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        } catch (NumberFormatException e) {
            n = -1;
            threads = 0;
        }
        if (n < 0 || threads < 1 || args.length > 2) {
            System.err.println("usage: W1PartitionedLimit [N] [P]   (N: records, a whole number >= 0, default 20000000;"
                    + " P: threads >= 1, default 2); got: " + String.join(" ", args));
            System.exit(2);
        }
        for (String round : new String[] {"cold", "warm"}) {
            long start = System.nanoTime();
            long hash = run(n, threads);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("RESULT workload=wordcount-heap-limit-%dthreads-%s records=%d seconds=%.3f "
                    + "records_per_s=%.0f checksum=%s%n", threads, round, n, seconds, n / seconds, Checksums.hex(hash));
        }
    }

    /** The W1 checksum of the first {@code n} records, computed by {@code threads} threads. */
    static long run(long n, int threads) throws InterruptedException {
        long[] hashes = new long[threads];
        Thread[] workers = new Thread[threads];
        for (int t = 0; t < threads; t++) {
            int owner = t;
            workers[t] = new Thread(() -> hashes[owner] = part(n, owner, threads), "w1-limit-" + t);
            workers[t].start();
        }
        long hash = 0;
        for (int t = 0; t < threads; t++) {
            workers[t].join(); // join makes the worker's write to hashes visible here
            hash += hashes[t];
        }
        return hash;
    }

    /** The checksum entries of the words {@code k} with {@code k mod threads == owner}. */
    private static long part(long n, int owner, int threads) {
        HashMap<String, Count> counts = new HashMap<>();
        long x = XorShiftSource.SEED;
        long hash = 0;
        for (long i = 0; i < n; i++) {
            x = XorShiftSource.step(x);
            long k = Math.floorMod(x, (long) Bench.WORDS);
            if (k % threads != owner) {
                continue;
            }
            String word = "w" + k;
            Count count = counts.computeIfAbsent(word, w -> new Count());
            hash += Checksums.rollingWordEntry(word, ++count.value);
        }
        return hash;
    }
}
