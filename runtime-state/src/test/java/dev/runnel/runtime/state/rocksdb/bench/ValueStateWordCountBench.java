package dev.runnel.runtime.state.rocksdb.bench;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The state side of the W2 workload, without the rest of the pipeline: per record one
 * {@code ValueState<Long>.value()} and one {@code update()} on the RocksDB store, words
 * {@code "w" + floorMod(x, 100000)} from the benchmarks' xorshift sequence, split over
 * {@code parallelism} subtasks by key group as keyBy would (each in its own thread).
 *
 * <p>Not a unit test: run it by hand, e.g.
 * {@code java -cp <test classpath> dev.runnel.runtime.state.rocksdb.bench.ValueStateWordCountBench 5000000 2 3 [cacheEntries]}
 * (records, parallelism, rounds, and optionally {@code state.backend.rocksdb.value-cache.size}; 0 turns
 * the value cache off).
 * Prints the get+put pairs per second of each subtask (also per second of the subtask thread's CPU
 * time, which is steadier on a shared machine) and in total, after a warm-up round.
 */
public final class ValueStateWordCountBench {

    private ValueStateWordCountBench() {}

    public static void main(String[] args) throws Exception {
        int records = args.length > 0 ? Integer.parseInt(args[0]) : 5_000_000;
        int parallelism = args.length > 1 ? Integer.parseInt(args[1]) : 2;
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Configuration conf = new Configuration();
        if (args.length > 3) {
            conf.setString(dev.runnel.contrib.streaming.state.RocksDBOptions.VALUE_CACHE_SIZE.key(), args[3]);
        }
        for (int round = 0; round < rounds; round++) {
            run(records, parallelism, conf, round == 0 ? "warm-up" : "round " + round);
        }
    }

    private static void run(int records, int parallelism, Configuration conf, String label) throws Exception {
        int maxParallelism = 128;
        // Pre-split the input per subtask, as the shuffle would, so only state access is timed.
        List<List<String>> inputs = new ArrayList<>();
        for (int s = 0; s < parallelism; s++) {
            inputs.add(new ArrayList<>(records / parallelism + 16));
        }
        long x = 42;
        String[] words = new String[100_000];
        for (int i = 0; i < words.length; i++) {
            words[i] = "w" + i;
        }
        for (int i = 0; i < records; i++) {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            String word = words[(int) Math.floorMod(x, 100000L)];
            inputs.get(KeyGroupRangeAssignment.assignKeyToParallelOperator(word, maxParallelism, parallelism)).add(word);
        }
        Path dir = Files.createTempDirectory("rocks-bench");
        Thread[] threads = new Thread[parallelism];
        double[] rates = new double[parallelism];
        double[] cpuRates = new double[parallelism];
        long[] checksums = new long[parallelism];
        long start = System.nanoTime();
        for (int s = 0; s < parallelism; s++) {
            int subtask = s;
            threads[s] = new Thread(() -> {
                try {
                    java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
                    long cpu0 = mx.getCurrentThreadCpuTime();
                    long t0 = System.nanoTime();
                    checksums[subtask] = subtask(dir, subtask, parallelism, maxParallelism, inputs.get(subtask), conf);
                    rates[subtask] = inputs.get(subtask).size() / ((System.nanoTime() - t0) / 1e9);
                    cpuRates[subtask] = inputs.get(subtask).size() / ((mx.getCurrentThreadCpuTime() - cpu0) / 1e9);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            }, "subtask-" + s);
            threads[s].start();
        }
        for (Thread thread : threads) {
            thread.join();
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        StringBuilder line = new StringBuilder(label).append(": ");
        long sum = 0;
        for (int s = 0; s < parallelism; s++) {
            line.append(String.format("subtask %d %.0f ops/s (%.0f per CPU-second), ", s, rates[s], cpuRates[s]));
            sum += checksums[s];
        }
        line.append(String.format("total %.0f get+put/s over %.2f s (sum of counts %d)", records / seconds, seconds, sum));
        System.out.println(line);
    }

    private static long subtask(Path dir, int subtask, int parallelism, int maxParallelism, List<String> input,
            Configuration conf) throws Exception {
        KeyedStateBackendParameters<String> parameters = new KeyedStateBackendParameters<>("wordcount", "count", subtask,
                StringSerializer.INSTANCE, maxParallelism,
                KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(maxParallelism, parallelism, subtask),
                List.of(), new SerializerConfig(), conf, List.of(dir.toFile()), null);
        long sumOfCounts = 0;
        try (KeyedStateBackend<String> backend = new EmbeddedRocksDBStateBackend().createKeyedStateBackend(parameters)) {
            ValueState<Long> count = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
            for (String word : input) {
                backend.setCurrentKey(word);
                Long current = count.value();
                long next = current == null ? 1 : current + 1;
                count.update(next);
                sumOfCounts += next;
            }
        }
        return sumOfCounts;
    }
}
