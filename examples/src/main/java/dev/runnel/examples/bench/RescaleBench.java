package dev.runnel.examples.bench;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.lib.NumberSequenceSource;
import dev.runnel.configuration.Configuration;
import dev.runnel.core.execution.JobClient;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;

/**
 * The pause of rescaling a running keyed job (issue 12): from the last record processed at the old
 * parallelism to the first at the new one, in place ({@code JobClient.rescale}) or by stop-with-savepoint
 * and a new job restored from it. {@code examples/flink-peer} runs the same job on Flink (savepoint only).
 *
 * <pre>
 *   RescaleBench [--keys K] [--records N] [--store heap|rocksdb] [--mode in-place|savepoint|none]
 * </pre>
 *
 * The job: a {@code NumberSequenceSource} 0..N-1 (default N = 5 K) at parallelism 2, keyed by {@code i % K}
 * (default K = 1,000,000, max parallelism 128), a {@code KeyedProcessFunction} "counter" with a
 * {@code ValueState<Long>} count at parallelism 2, and a discarding sink. As soon as every key has state,
 * the counter goes from 2 to 4. Every processed record stamps {@code System.nanoTime()}; the gap to the
 * previously processed record (of any subtask) is tracked as a maximum, separately before the rescale
 * request (the baseline: what the job's own hiccups — GC, hash map growth — cost) and after it (the pause).
 * Mode {@code none} never rescales: its pause is the largest gap of a whole run without rescale.
 *
 * <p>The result is checked as W1's is: records processed exactly N, K distinct keys, and the sum of rolling
 * counts and the checksum of the final count of every key ({@code mix64((k << 32) ^ count)} summed, kept as
 * a telescoping sum) equal to a sequential computation. A lost record, a doubled one, or a key whose count
 * restarted after the rescale changes them.
 */
public final class RescaleBench {

    static final int SOURCE_PARALLELISM = 2;
    static final int MAX_PARALLELISM = 128;

    // Static: the counter's subtasks of both jobs (savepoint mode) run in this JVM and add to the same totals.
    static final AtomicLong LAST_NANOS = new AtomicLong();
    static final LongAdder PROCESSED = new LongAdder();
    static final LongAdder DISTINCT = new LongAdder();
    static final LongAdder SUM_ROLLING = new LongAdder();
    static final LongAdder HASH = new LongAdder();
    /** Set once the rescale is requested: later gaps count as the pause, earlier ones as the baseline. */
    static volatile boolean requested;
    static final Gap BEFORE = new Gap();
    static final Gap AFTER = new Gap();

    private RescaleBench() {}

    /** The largest gap seen and when it started and ended; written rarely, under its own lock. */
    static final class Gap {
        volatile long max;
        long start;
        long end;

        synchronized void offer(long from, long to) {
            if (to - from > max) {
                max = to - from;
                start = from;
                end = to;
            }
        }
    }

    public static void main(String[] args) throws Exception {
        int keys = 1_000_000;
        long records = -1;
        String store = "heap";
        String mode = "in-place";
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--keys" -> { keys = (int) Bench.number(value, "--keys", 1); i++; }
                case "--records" -> { records = Bench.number(value, "--records", 1); i++; }
                case "--store" -> { store = value; i++; }
                case "--mode" -> { mode = value; i++; }
                default -> {
                    System.err.println("usage: RescaleBench [--keys K] [--records N] [--store heap|rocksdb] "
                            + "[--mode in-place|savepoint|none]");
                    System.exit(2);
                }
            }
        }
        if (!store.equals("heap") && !store.equals("rocksdb")
                || !mode.equals("in-place") && !mode.equals("savepoint") && !mode.equals("none")) {
            System.err.println("--store heap|rocksdb, --mode in-place|savepoint|none");
            System.exit(2);
        }
        if (records < 0) {
            records = 5L * keys;
        }
        System.exit(run(keys, records, store, mode));
    }

    static int run(int keys, long records, String store, String mode) throws Exception {
        Path dir = Files.createTempDirectory("runnel-rescale-bench-");
        try {
            System.out.printf("INFO runtime=runnel workload=rescale store=%s mode=%s keys=%d records=%d "
                    + "parallelism=2->4 max_parallelism=%d java=%s%n", store, mode, keys, records, MAX_PARALLELISM,
                    System.getProperty("java.version"));
            long t0 = System.nanoTime();
            JobClient first = environment(store, 2, dir, null, keys, records).executeAsync("rescale-bench p2");
            // All K keys have state and the job keeps running: now rescale.
            while (DISTINCT.sum() < keys) {
                Thread.sleep(1);
            }
            long processedAtRequest = PROCESSED.sum();
            // Mode none never requests: its whole run is one baseline.
            requested = !mode.equals("none");
            long request = System.nanoTime();
            long rescaled = 0;
            long savepointDone = 0;
            long firstStopped = 0;
            long secondSubmitted = 0;
            switch (mode) {
                case "in-place" -> {
                    first.rescale(Map.of("counter", 4)).get(120, TimeUnit.SECONDS);
                    rescaled = System.nanoTime();
                    first.getJobExecutionResult().get(600, TimeUnit.SECONDS);
                }
                case "savepoint" -> {
                    String savepoint = first.stopWithSavepoint(false, dir.resolve("savepoints").toString(),
                            SavepointFormatType.CANONICAL).get(120, TimeUnit.SECONDS);
                    savepointDone = System.nanoTime();
                    first.getJobExecutionResult().get(120, TimeUnit.SECONDS);
                    firstStopped = System.nanoTime();
                    JobClient second = environment(store, 4, dir, savepoint, keys, records)
                            .executeAsync("rescale-bench p4");
                    secondSubmitted = System.nanoTime();
                    second.getJobExecutionResult().get(600, TimeUnit.SECONDS);
                }
                default -> first.getJobExecutionResult().get(600, TimeUnit.SECONDS);
            }
            long end = System.nanoTime();
            return report(keys, records, store, mode, t0, request, processedAtRequest, rescaled, savepointDone,
                    firstStopped, secondSubmitted, end);
        } finally {
            deleteRecursively(dir);
        }
    }

    static StreamExecutionEnvironment environment(String store, int counterParallelism, Path dir, String savepoint,
            int keys, long records) {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", store.equals("heap") ? "hashmap" : "rocksdb");
        conf.setString("execution.checkpointing.dir", dir.resolve("checkpoints").toString());
        if (savepoint != null) {
            conf.setString("execution.state-recovery.path", savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(counterParallelism);
        env.setMaxParallelism(MAX_PARALLELISM);
        long k = keys;
        env.fromSource(new NumberSequenceSource(0, records - 1), WatermarkStrategy.noWatermarks(), "numbers")
                .setParallelism(SOURCE_PARALLELISM).uid("numbers")
                .keyBy(v -> v % k)
                .process(new Counter()).uid("counter")
                .addSink(new SinkFunction<Long>() {}).uid("sink");
        return env;
    }

    /** Counts per key; stamps every record so that the largest gap between two processed records is known. */
    static final class Counter extends KeyedProcessFunction<Long, Long, Long> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Long> out) throws Exception {
            long now = System.nanoTime();
            long previous = LAST_NANOS.getAndSet(now);
            // previous 0: the first record of the run. Two subtasks may stamp out of order: a negative gap.
            if (previous != 0) {
                Gap gap = requested ? AFTER : BEFORE;
                if (now - previous > gap.max) {
                    gap.offer(previous, now);
                }
            }
            Long c = count.value();
            long next = c == null ? 1 : c + 1;
            count.update(next);
            long key = ctx.getCurrentKey();
            PROCESSED.increment();
            SUM_ROLLING.add(next);
            if (next == 1) {
                DISTINCT.increment();
                HASH.add(entry(key, 1));
            } else {
                HASH.add(entry(key, next) - entry(key, next - 1));
            }
        }
    }

    static long entry(long key, long count) {
        return Checksums.mix64((key << 32) ^ count);
    }

    /** Distinct keys, sum of rolling counts and checksum of the final counts, computed directly. */
    static long[] expected(int keys, long records) {
        long sum = 0;
        long hash = 0;
        long distinct = Math.min(keys, records);
        for (long k = 0; k < distinct; k++) {
            long c = records / keys + (k < records % keys ? 1 : 0);
            sum += c * (c + 1) / 2;
            hash += entry(k, c);
        }
        return new long[] {distinct, sum, hash};
    }

    private static int report(int keys, long records, String store, String mode, long t0, long request,
            long processedAtRequest, long rescaled, long savepointDone, long firstStopped, long secondSubmitted,
            long end) {
        long[] e = expected(keys, records);
        long processed = PROCESSED.sum();
        boolean ok = processed == records && DISTINCT.sum() == e[0] && SUM_ROLLING.sum() == e[1] && HASH.sum() == e[2];
        boolean rescaling = !mode.equals("none");
        // Records must follow the rescale, or the pause was not measured.
        ok &= !rescaling || processedAtRequest < records && AFTER.max > 0;
        System.out.printf("CHECK processed=%d distinct_keys=%d sum_rolling=%d checksum=%s "
                        + "expected(keys/sum/checksum)=%d/%d/%s processed_at_request=%d ok=%s%n",
                processed, DISTINCT.sum(), SUM_ROLLING.sum(), Checksums.hex(HASH.sum()), e[0], e[1],
                Checksums.hex(e[2]), processedAtRequest, ok);
        // Times relative to the rescale request, in ms.
        System.out.printf(Locale.ROOT, "PHASES request_after_start_ms=%.1f last_old_record_ms=%.1f "
                        + "first_new_record_ms=%.1f rescale_future_ms=%s savepoint_future_ms=%s first_job_ended_ms=%s "
                        + "second_job_submitted_ms=%s job_end_ms=%.1f baseline_gap_at_ms=%.1f%n",
                ms(request - t0), ms(AFTER.start - request), ms(AFTER.end - request), rel(rescaled, request),
                rel(savepointDone, request), rel(firstStopped, request), rel(secondSubmitted, request),
                ms(end - request), ms(BEFORE.end - t0));
        double pause = rescaling ? ms(AFTER.max) : ms(Math.max(AFTER.max, BEFORE.max));
        System.out.printf(Locale.ROOT, "RESULT workload=rescale store=%s mode=%s keys=%d pause_ms=%.1f "
                + "baseline_max_gap_ms=%.1f ok=%s%n", store, mode, keys, pause, ms(BEFORE.max), ok);
        return ok ? 0 : 1;
    }

    private static double ms(long nanos) {
        return nanos / 1e6;
    }

    private static String rel(long at, long request) {
        return at == 0 ? "-" : String.format(Locale.ROOT, "%.1f", ms(at - request));
    }

    private static void deleteRecursively(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) paths.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        }
    }
}
