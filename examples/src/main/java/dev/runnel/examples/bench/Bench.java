package dev.runnel.examples.bench;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.accumulators.LongCounter;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.CoreOptions;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.minicluster.EmbeddedRuntime;
import dev.runnel.runtime.state.StateBackendFactory;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.RichSinkFunction;
import dev.runnel.streaming.api.functions.windowing.ProcessWindowFunction;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;

/**
 * The benchmark workloads (docs/BENCHMARKS.md, "The workloads") on Runnel: the same generator, the
 * same semantics, parallelism 2, the same checksums and the same {@code RESULT} line as the Flink peer
 * ({@code examples/flink-peer}). Time is measured from job submission to job result, as the peer does.
 *
 * <pre>
 *   Bench WORKLOAD [N] [--object-reuse] [--no-verify] [--parallelism P (default 2)] [--warmup W] [--trace] [--conf key=value]...
 *   WORKLOAD: wordcount-heap (W1) | wordcount-rocksdb (W2) | window (W3)
 *   Bench timers heap|rocksdb [N] ...   (the timer benchmark, see {@link TimerBench})
 *   Bench pojo pojo|tuple [N] ...       (POJO against tuple records in W1, see {@link PojoBench})
 *   Bench checkpoint-size [--keys K] ... (checkpoint cost per store: sync, async, bytes; see {@link CheckpointSizeBench})
 *   Bench savepoint-size [--keys K] ...  (the same for savepoints: checkpoint-size --savepoints)
 *   Bench restore-rescale [--keys K] [--value-bytes B] ... (RocksDB restore 4 -> 2; see {@link RestoreRescaleBench})
 *   Bench rescale [--keys K] [--store heap|rocksdb] [--mode in-place|savepoint|none] (the rescale pause, see {@link RescaleBench})
 * </pre>
 */
public final class Bench {

    static final int PARALLELISM = 2;
    static final int WORDS = 100_000;
    static final int WINDOW_KEYS = 10_000;
    static final long WINDOW_SIZE_MS = 1000;

    private Bench() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: Bench wordcount-heap|wordcount-rocksdb|window [N] [--object-reuse] [--no-verify] [--trace]");
            System.exit(2);
        }
        String workload = args[0].toLowerCase(Locale.ROOT);
        if (workload.equals("timers")) {
            TimerBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (workload.equals("shuffle")) {
            ShuffleBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (workload.equals("loopback")) {
            System.exit(ShuffleBench.runLoopback(args.length > 1 ? number(args[1], "MIB (the bytes to copy)", 1) : 4096));
        }
        if (workload.equals("checkpoint-size")) {
            CheckpointSizeBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (workload.equals("savepoint-size")) {
            String[] rest = java.util.Arrays.copyOfRange(args, 0, args.length);
            rest[0] = "--savepoints";
            CheckpointSizeBench.main(rest);
            return;
        }
        if (workload.equals("restore-rescale")) {
            RestoreRescaleBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (workload.equals("rescale")) {
            RescaleBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        if (workload.equals("pojo")) {
            PojoBench.main(java.util.Arrays.copyOfRange(args, 1, args.length));
            return;
        }
        long n = switch (workload) {
            case "wordcount-heap", "w1" -> 20_000_000L;
            case "wordcount-rocksdb", "w2" -> 5_000_000L;
            case "window", "w3" -> 10_000_000L;
            case "checkpoint", "w4" -> 20_000_000L;
            default -> {
                System.err.println("unknown workload '" + args[0]
                        + "'; use wordcount-heap, wordcount-rocksdb, window or checkpoint");
                System.exit(2);
                yield 0;
            }
        };
        boolean objectReuse = false;
        boolean verify = true;
        long warmup = 0;
        Configuration conf = new Configuration();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--object-reuse" -> objectReuse = true;
                case "--no-verify" -> verify = false;
                case "--trace" -> System.setProperty(RateTrace.PROPERTY, "true");
                case "--warmup" -> warmup = number(i + 1 < args.length ? args[++i] : "", "--warmup", 0);
                case "--parallelism" -> conf.setString("parallelism.default",
                        Long.toString(number(i + 1 < args.length ? args[++i] : "", "--parallelism", 1)));
                case "--taskmanagers" -> conf.setString("taskmanager.count",
                        Long.toString(number(i + 1 < args.length ? args[++i] : "", "--taskmanagers", 1)));
                case "--conf" -> {
                    String[] kv = args[++i].split("=", 2);
                    if (kv.length != 2) {
                        System.err.println("--conf takes key=value, got '" + args[i] + "'");
                        System.exit(2);
                    }
                    conf.setString(kv[0], kv[1]);
                }
                default -> n = number(args[i], "N (the record count)", 1);
            }
        }
        if (warmup > 0) {
            // An unmeasured job of W records in the same JVM first, so that the measured one runs compiled code,
            // as the hand-written limits do (their first round is unmeasured). The peer comparison stays cold.
            System.out.println("INFO warmup: one unmeasured job of " + warmup + " records");
            if (run(workload, warmup, objectReuse, false, conf, "WARMUP") != 0) {
                System.exit(1);
            }
        }
        System.exit(run(workload, n, objectReuse, verify, conf));
    }

    /** Parses a whole number of at least {@code min} from the command line, or exits with a usage error naming it. */
    static long number(String text, String what, long min) {
        try {
            long value = Long.parseLong(text.replace("_", ""));
            if (value >= min) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        System.err.println(what + " must be a whole number of at least " + min + ", got '" + text + "'");
        System.exit(2);
        return 0;
    }

    static int run(String workload, long n, boolean objectReuse, boolean verify, Configuration conf) throws Exception {
        return run(workload, n, objectReuse, verify, conf, "RESULT");
    }

    /** Runs one job; its summary line starts with {@code tag} (RESULT, or WARMUP for an unmeasured job). */
    static int run(String workload, long n, boolean objectReuse, boolean verify, Configuration conf, String tag)
            throws Exception {
        boolean window = workload.equals("window") || workload.equals("w3");
        boolean rocksdb = workload.equals("wordcount-rocksdb") || workload.equals("w2");
        boolean checkpointing = workload.equals("checkpoint") || workload.equals("w4");
        String label = window ? "window" : rocksdb ? "wordcount-rocksdb" : checkpointing ? "checkpoint" : "wordcount-heap";
        conf.set(StateBackendFactory.STATE_BACKEND, rocksdb ? "rocksdb" : "heap");
        java.nio.file.Path checkpointDir = null;
        if (checkpointing) {
            // W4: W1 with aligned exactly-once checkpoints every second into a fresh folder, as the peer does.
            checkpointDir = java.nio.file.Files.createTempDirectory("runnel-bench-checkpoints-");
            conf.setString("execution.checkpointing.interval", "1 s");
            conf.setString("execution.checkpointing.mode", "EXACTLY_ONCE");
            conf.setString("state.checkpoints.dir", checkpointDir.toUri().toString());
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        int parallelism = conf.contains(CoreOptions.DEFAULT_PARALLELISM) ? conf.get(CoreOptions.DEFAULT_PARALLELISM)
                : PARALLELISM;
        env.setParallelism(parallelism);
        if (objectReuse) {
            env.getConfig().enableObjectReuse();
        }
        if (window) {
            buildWindow(env, n);
        } else {
            buildWordCount(env, n);
        }
        System.out.printf("INFO runtime=runnel workload=%s N=%d parallelism=%d state_backend=%s object_reuse=%s conf=%s java=%s%n",
                label, n, parallelism, rocksdb ? "rocksdb" : "heap", objectReuse, conf, System.getProperty("java.version"));
        XorShiftSource.EMITTED.set(0);
        XorShiftSource.COMPLETED_CHECKPOINTS.set(0);
        // On the embedded runtime the clock starts where the peer's does, at the submission of a compiled job
        // graph; through a cluster client (bench-cluster.sh) it also spans the client's compilation.
        String jobName = "bench-" + label;
        JobGraph jobGraph = env.getClass() == StreamExecutionEnvironment.class
                ? env.getStreamGraph(jobName).getJobGraph() : null;
        long t0 = System.nanoTime();
        RateTrace trace = RateTrace.start(t0);
        JobExecutionResult result = jobGraph != null ? submitAndWait(jobGraph, env.getConfiguration())
                : env.execute(jobName);
        long elapsed = System.nanoTime() - t0;
        if (trace != null) {
            trace.stopAndPrint();
        }
        Map<String, Object> acc = result.getAllAccumulatorResults();
        long records = XorShiftSource.EMITTED.get();
        if (records == 0) {
            // On a cluster the sources count in other processes: take what the sinks received.
            records = acc.containsKey("records") ? (Long) acc.get("records") : (Long) acc.get("sum_counts");
        }
        boolean ok = records == n;
        long hash;
        if (window) {
            long results = (Long) acc.get("results");
            long sum = (Long) acc.get("sum_counts");
            hash = (Long) acc.get("hash");
            String expected = "-";
            if (verify) {
                long[] e = expectedWindow(n);
                ok &= e[0] == results && e[1] == sum && e[2] == hash;
                expected = e[0] + "/" + e[1] + "/" + Checksums.hex(e[2]);
            }
            ok &= sum == n;
            System.out.printf("CHECK workload=%s window_results=%d sum_of_window_counts=%d result_hash=%s "
                    + "expected(results/sum/hash)=%s ok=%s%n", label, results, sum, Checksums.hex(hash), expected, ok);
        } else {
            long sinkRecords = (Long) acc.get("records");
            long keys = (Long) acc.get("keys");
            long sumRolling = (Long) acc.get("sum_rolling_counts");
            hash = (Long) acc.get("hash");
            String expected = "-";
            if (verify) {
                long[] e = expectedWordCount(n);
                ok &= e[0] == keys && e[1] == sumRolling && e[2] == hash;
                expected = e[0] + "/" + e[1] + "/" + Checksums.hex(e[2]);
            }
            ok &= sinkRecords == n;
            System.out.printf("CHECK workload=%s sink_records=%d distinct_keys=%d sum_of_rolling_counts=%d "
                    + "final_map_hash=%s expected(keys/sum_rolling/hash)=%s ok=%s%n",
                    label, sinkRecords, keys, sumRolling, Checksums.hex(hash), expected, ok);
        }
        System.out.printf(Locale.ROOT, "INFO submit_to_result_ms=%.1f net_runtime_ms=%d%n", elapsed / 1e6,
                result.getNetRuntime());
        if (!ok) {
            System.out.println("ERROR result verification failed");
        }
        double seconds = elapsed / 1e9;
        String extra = "";
        if (checkpointing) {
            long checkpoints = XorShiftSource.COMPLETED_CHECKPOINTS.get();
            System.out.printf(Locale.ROOT, "INFO completed_checkpoints=%d checkpoints_per_s=%.3f%n", checkpoints,
                    checkpoints / seconds);
            extra = " checkpoints=" + checkpoints;
            deleteQuietly(checkpointDir);
        }
        System.out.printf(Locale.ROOT, "%s workload=%s records=%d seconds=%.3f records_per_s=%.0f checksum=%s%s%n",
                tag, label, records, seconds, records / seconds, Checksums.hex(hash), extra);
        return ok ? 0 : 1;
    }

    private static void deleteQuietly(java.nio.file.Path dir) throws java.io.IOException {
        try (java.util.stream.Stream<java.nio.file.Path> files = java.nio.file.Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).map(java.nio.file.Path::toFile)
                    .forEach(java.io.File::delete);
        }
    }

    /** Runs {@code jobGraph} on the embedded runtime and waits for its result; rethrows its failure. */
    private static JobExecutionResult submitAndWait(JobGraph jobGraph, Configuration conf) throws Exception {
        try {
            return EmbeddedRuntime.submit(jobGraph, conf).getJobExecutionResult().get();
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }

    // ------------------------------------------------------------------ W1 / W2

    static void buildWordCount(StreamExecutionEnvironment env, long n) {
        DataStream<String> words = env.fromSource(
                new XorShiftSource<>(n, (i, x) -> "w" + Math.floorMod(x, WORDS), Types.STRING, false),
                WatermarkStrategy.noWatermarks(), "xorshift-words");
        words.keyBy(s -> s, Types.STRING)
                .process(new RollingCount()).name("rolling-count")
                .addSink(new WordCountSink()).name("checksum-sink");
    }

    /** For every word, the count so far: one output per input. */
    static final class RollingCount extends KeyedProcessFunction<String, String, Tuple2<String, Long>> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext ctx) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(String word, Context ctx, Collector<Tuple2<String, Long>> out) throws Exception {
            Long c = count.value();
            long next = c == null ? 1L : c + 1L;
            count.update(next);
            out.collect(Tuple2.of(word, next));
        }
    }

    /** Keeps the counters of the peer's sink: records, distinct keys, sum of counts, final-map hash. */
    static final class WordCountSink extends RichSinkFunction<Tuple2<String, Long>> {
        private long records;
        private long keys;
        private long sumRolling;
        private long hash;

        @Override
        public void invoke(Tuple2<String, Long> v, Context ctx) {
            long c = v.f1;
            records++;
            RateTrace.count(records);
            sumRolling += c;
            if (c == 1) {
                keys++;
            }
            hash += Checksums.rollingWordEntry(v.f0, c);
        }

        @Override
        public void close() {
            getRuntimeContext().addAccumulator("records", new LongCounter(records));
            getRuntimeContext().addAccumulator("keys", new LongCounter(keys));
            getRuntimeContext().addAccumulator("sum_rolling_counts", new LongCounter(sumRolling));
            getRuntimeContext().addAccumulator("hash", new LongCounter(hash));
        }
    }

    static long[] expectedWordCount(long n) {
        long[] counts = new long[WORDS];
        long x = XorShiftSource.SEED;
        for (long i = 0; i < n; i++) {
            x = XorShiftSource.step(x);
            counts[(int) Math.floorMod(x, (long) WORDS)]++;
        }
        long keys = 0;
        long sumRolling = 0;
        long hash = 0;
        for (int k = 0; k < WORDS; k++) {
            long c = counts[k];
            if (c > 0) {
                keys++;
                sumRolling += c * (c + 1) / 2;
                hash += Checksums.wordEntry("w" + k, c);
            }
        }
        return new long[] {keys, sumRolling, hash};
    }

    // ------------------------------------------------------------------ W3

    static void buildWindow(StreamExecutionEnvironment env, long n) {
        DataStream<String> keys = env.fromSource(
                new XorShiftSource<>(n, (i, x) -> "k" + Math.floorMod(x, WINDOW_KEYS), Types.STRING, true),
                WatermarkStrategy.<String>forBoundedOutOfOrderness(Duration.ZERO), "xorshift-keys");
        keys.keyBy(s -> s, Types.STRING)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(WINDOW_SIZE_MS)))
                .aggregate(new CountAgg(), new EmitWindow()).name("window-count")
                .addSink(new WindowSink()).name("checksum-sink");
    }

    static final class CountAgg implements AggregateFunction<String, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(String value, Long acc) {
            return acc + 1;
        }

        @Override
        public Long getResult(Long acc) {
            return acc;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    static final class EmitWindow extends ProcessWindowFunction<Long, Tuple3<String, Long, Long>, String, TimeWindow> {
        @Override
        public void process(String key, Context ctx, Iterable<Long> counts, Collector<Tuple3<String, Long, Long>> out) {
            out.collect(Tuple3.of(key, ctx.window().getStart(), counts.iterator().next()));
        }
    }

    static final class WindowSink extends RichSinkFunction<Tuple3<String, Long, Long>> {
        private long results;
        private long sum;
        private long hash;

        @Override
        public void invoke(Tuple3<String, Long, Long> v, Context ctx) {
            results++;
            RateTrace.count(results);
            sum += v.f2;
            hash += Checksums.windowEntry(v.f0, v.f1, v.f2);
        }

        @Override
        public void close() {
            getRuntimeContext().addAccumulator("results", new LongCounter(results));
            getRuntimeContext().addAccumulator("sum_counts", new LongCounter(sum));
            getRuntimeContext().addAccumulator("hash", new LongCounter(hash));
        }
    }

    static long[] expectedWindow(long n) {
        int[] counts = new int[WINDOW_KEYS];
        int[] touched = new int[WINDOW_KEYS];
        int touchedCount = 0;
        long results = 0;
        long sum = 0;
        long hash = 0;
        long x = XorShiftSource.SEED;
        long windowStart = 0;
        for (long i = 0; i <= n; i++) {
            boolean end = i == n;
            if (end || i / WINDOW_SIZE_MS * WINDOW_SIZE_MS != windowStart) {
                for (int t = 0; t < touchedCount; t++) {
                    int k = touched[t];
                    results++;
                    sum += counts[k];
                    hash += Checksums.windowEntry("k" + k, windowStart, counts[k]);
                    counts[k] = 0;
                }
                touchedCount = 0;
                if (end) {
                    break;
                }
                windowStart = i / WINDOW_SIZE_MS * WINDOW_SIZE_MS;
            }
            x = XorShiftSource.step(x);
            int k = (int) Math.floorMod(x, (long) WINDOW_KEYS);
            if (counts[k]++ == 0) {
                touched[touchedCount++] = k;
            }
        }
        return new long[] {results, sum, hash};
    }
}
