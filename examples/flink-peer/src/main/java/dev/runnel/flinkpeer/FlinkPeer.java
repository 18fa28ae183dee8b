package dev.runnel.flinkpeer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Stream;
import org.apache.flink.api.common.JobExecutionResult;
import org.apache.flink.api.common.accumulators.LongCounter;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.AggregateFunction;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.api.java.tuple.Tuple3;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.CheckpointingMode;
import org.apache.flink.runtime.checkpoint.CheckpointStatsSnapshot;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobmaster.JobResult;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.windowing.ProcessWindowFunction;
import org.apache.flink.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import org.apache.flink.streaming.api.windowing.windows.TimeWindow;
import org.apache.flink.util.Collector;

/**
 * The benchmark workloads W1..W4 (docs/BENCHMARKS.md, "The workloads") on Apache Flink, for
 * comparison with Runnel's {@code dev.runnel.examples.bench.Bench}. The job graphs follow that class
 * operator for operator (Runnel's DataStream API mirrors Flink's): the same generator, the same
 * semantics, parallelism 2, the same checksums and the same {@code RESULT} line.
 *
 * <p>The jobs run on a local {@link MiniCluster} in this JVM (one TaskManager with two slots) that is
 * started before the clock starts: {@code seconds} runs from the submission of the job graph to the
 * running cluster until its result (with the accumulators) is available.
 *
 * <pre>
 *   FlinkPeer WORKLOAD [N] [--object-reuse] [--no-verify] [--expected-only] [--taskmanagers 1|2]
 *             [--conf key=value]...
 *   WORKLOAD: wordcount-heap (W1) | wordcount-rocksdb (W2) | window (W3) | checkpoint (W4)
 *   FlinkPeer rescale [--keys K] [--records N] [--store heap|rocksdb] [--mode savepoint|none]  (see {@link FlinkRescale})
 * </pre>
 *
 * {@code --taskmanagers 2} starts two TaskManagers with one slot each instead of one with two slots,
 * so the exchange between the source and the keyed operator goes through Netty on the loopback
 * interface. {@code --conf} adds a Flink option to the job's configuration.
 */
public final class FlinkPeer {

    static final int PARALLELISM = 2;
    static final int WORDS = 100_000;
    static final int WINDOW_KEYS = 10_000;
    static final long WINDOW_SIZE_MS = 1000;
    static final long CHECKPOINT_INTERVAL_MS = 1000;

    private FlinkPeer() {}

    /** The four workloads, their names on the command line and their default record counts. */
    enum Workload {
        W1("wordcount-heap", 20_000_000L),
        W2("wordcount-rocksdb", 5_000_000L),
        W3("window", 10_000_000L),
        W4("checkpoint", 20_000_000L);

        final String label;
        final long defaultN;

        Workload(String label, long defaultN) {
            this.label = label;
            this.defaultN = defaultN;
        }

        static Workload parse(String text) {
            String t = text.toLowerCase(Locale.ROOT);
            for (Workload w : values()) {
                if (w.label.equals(t) || w.name().toLowerCase(Locale.ROOT).equals(t)) {
                    return w;
                }
            }
            return null;
        }

        boolean rocksdb() {
            return this == W2;
        }

        boolean window() {
            return this == W3;
        }

        boolean checkpoints() {
            return this == W4;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            usage();
        }
        if (args[0].equals("rescale")) {
            // Not one of W1..W4: the rescale pause (issue 12), its own job and RESULT line.
            System.exit(FlinkRescale.main(args));
        }
        Workload workload = Workload.parse(args[0]);
        if (workload == null) {
            System.err.println("unknown workload '" + args[0] + "'; use wordcount-heap, wordcount-rocksdb, window or checkpoint");
            System.exit(2);
        }
        long n = workload.defaultN;
        boolean objectReuse = false;
        boolean verify = true;
        boolean expectedOnly = false;
        int taskManagers = 1;
        Configuration jobConf = new Configuration();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--object-reuse" -> objectReuse = true;
                case "--no-verify" -> verify = false;
                case "--expected-only" -> expectedOnly = true;
                case "--taskmanagers" -> {
                    taskManagers = (int) number(i + 1 < args.length ? args[++i] : "", "--taskmanagers");
                    if (PARALLELISM % taskManagers != 0) {
                        System.err.println("--taskmanagers must divide the parallelism " + PARALLELISM);
                        System.exit(2);
                    }
                }
                case "--conf" -> {
                    String[] kv = i + 1 < args.length ? args[++i].split("=", 2) : new String[0];
                    if (kv.length != 2) {
                        System.err.println("--conf takes key=value");
                        System.exit(2);
                    }
                    jobConf.setString(kv[0], kv[1]);
                }
                default -> n = number(args[i], "N (the record count)");
            }
        }
        if (expectedOnly) {
            printExpected(workload, n);
            System.exit(0);
        }
        System.exit(run(workload, n, taskManagers, objectReuse, verify, jobConf));
    }

    private static void usage() {
        System.err.println("usage: FlinkPeer wordcount-heap|wordcount-rocksdb|window|checkpoint [N] "
                + "[--object-reuse] [--no-verify] [--expected-only] [--taskmanagers 1|2] [--conf key=value]...");
        System.exit(2);
    }

    /** Parses a whole number of at least 1 ({@code _} separators allowed), or exits with a usage error. */
    static long number(String text, String what) {
        try {
            long value = Long.parseLong(text.replace("_", ""));
            if (value >= 1) {
                return value;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        System.err.println(what + " must be a whole number of at least 1, got '" + text + "'");
        System.exit(2);
        return 0;
    }

    static void printExpected(Workload workload, long n) {
        if (workload.window()) {
            long[] e = expectedWindow(n);
            System.out.printf("EXPECTED workload=%s N=%d window_results=%d sum_of_window_counts=%d checksum=%s%n",
                    workload.label, n, e[0], e[1], Checksums.hex(e[2]));
        } else {
            long[] e = expectedWordCount(n);
            System.out.printf("EXPECTED workload=%s N=%d distinct_keys=%d sum_of_rolling_counts=%d checksum=%s%n",
                    workload.label, n, e[0], e[1], Checksums.hex(e[2]));
        }
    }

    static int run(Workload workload, long n, int taskManagers, boolean objectReuse, boolean verify,
            Configuration jobConf) throws Exception {
        // The keyed state backend and the checkpoint storage are chosen through configuration
        // options, which both Flink lines understand (Flink 2 removed setStateBackend).
        jobConf.set(StateBackendOptions.STATE_BACKEND, workload.rocksdb() ? "rocksdb" : "hashmap");
        Path checkpointDir = null;
        if (workload.checkpoints()) {
            checkpointDir = Files.createTempDirectory("flink-peer-checkpoints-");
            jobConf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
            jobConf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDir.toUri().toString());
        }
        try {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(jobConf);
            env.setParallelism(PARALLELISM);
            if (objectReuse) {
                env.getConfig().enableObjectReuse();
            }
            if (workload.checkpoints()) {
                // aligned barriers (unaligned checkpoints are off by default)
                env.enableCheckpointing(CHECKPOINT_INTERVAL_MS, CheckpointingMode.EXACTLY_ONCE);
            }
            if (workload.window()) {
                buildWindow(env, n);
            } else {
                buildWordCount(env, n);
            }
            JobGraph jobGraph = env.getStreamGraph().getJobGraph();
            System.out.printf("INFO runtime=flink flink_version=%s workload=%s N=%d parallelism=%d taskmanagers=%d "
                    + "state_backend=%s object_reuse=%s checkpoint_interval_ms=%s conf=%s java=%s jvm=%s%n",
                    EnvironmentInformation.getVersion(), workload.label, n, PARALLELISM, taskManagers,
                    workload.rocksdb() ? "rocksdb" : "hashmap", objectReuse,
                    workload.checkpoints() ? Long.toString(CHECKPOINT_INTERVAL_MS) : "off", jobConf,
                    System.getProperty("java.version"), System.getProperty("java.vm.name"));
            return execute(workload, n, taskManagers, verify, jobGraph);
        } finally {
            if (checkpointDir != null) {
                deleteRecursively(checkpointDir);
            }
        }
    }

    /** What one job run produced. */
    private record Run(JobExecutionResult result, long netRuntimeMs, long elapsedNanos, long checkpoints) {}

    /**
     * Starts the cluster, then times submission to result. The cluster is shut down before anything
     * is reported, so that nothing Flink prints while stopping can follow the RESULT line.
     */
    private static int execute(Workload workload, long n, int taskManagers, boolean verify, JobGraph jobGraph)
            throws Exception {
        MiniClusterConfiguration clusterConf = new MiniClusterConfiguration.Builder()
                .setConfiguration(new Configuration())
                .setNumTaskManagers(taskManagers)
                .setNumSlotsPerTaskManager(PARALLELISM / taskManagers)
                .withRandomPorts()
                .build();
        Run run;
        try (MiniCluster cluster = new MiniCluster(clusterConf)) {
            cluster.start();
            XorShiftSource.EMITTED.set(0);
            long t0 = System.nanoTime();
            cluster.submitJob(jobGraph).get();
            JobResult jobResult = cluster.requestJobResult(jobGraph.getJobID()).get();
            JobExecutionResult result = jobResult.toJobExecutionResult(FlinkPeer.class.getClassLoader());
            long elapsed = System.nanoTime() - t0;
            long checkpoints = -1;
            if (workload.checkpoints()) {
                CheckpointStatsSnapshot stats =
                        cluster.getArchivedExecutionGraph(jobGraph.getJobID()).get().getCheckpointStatsSnapshot();
                checkpoints = stats == null ? 0 : stats.getCounts().getNumberOfCompletedCheckpoints();
            }
            run = new Run(result, jobResult.getNetRuntime(), elapsed, checkpoints);
        }
        return report(workload, n, verify, run);
    }

    private static int report(Workload workload, long n, boolean verify, Run run) {
        Map<String, Object> acc = run.result().getAllAccumulatorResults();
        long elapsedNanos = run.elapsedNanos();
        long checkpoints = run.checkpoints();
        long records = XorShiftSource.EMITTED.get();
        boolean ok = records == n;
        long hash;
        if (workload.window()) {
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
                    + "expected(results/sum/hash)=%s ok=%s%n", workload.label, results, sum, Checksums.hex(hash),
                    expected, ok);
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
                    workload.label, sinkRecords, keys, sumRolling, Checksums.hex(hash), expected, ok);
        }
        System.out.printf(Locale.ROOT, "INFO submit_to_result_ms=%.1f flink_net_runtime_ms=%d%n", elapsedNanos / 1e6,
                run.netRuntimeMs());
        if (!ok) {
            System.out.println("ERROR result verification failed");
        }
        double seconds = elapsedNanos / 1e9;
        System.out.printf(Locale.ROOT, "RESULT workload=%s records=%d seconds=%.3f records_per_s=%.0f checksum=%s%s%n",
                workload.label, records, seconds, records / seconds, Checksums.hex(hash),
                checkpoints >= 0 ? " checkpoints=" + checkpoints : "");
        return ok ? 0 : 1;
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

    // ------------------------------------------------------------------ W1 / W2 / W4

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
        private static final long serialVersionUID = 1L;
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

    /** Discards the rolling counts but keeps counters: records, distinct keys, sum of counts, final-map hash. */
    static final class WordCountSink extends ChecksumSinkBase<Tuple2<String, Long>> {
        private static final long serialVersionUID = 1L;
        private long records;
        private long keys;
        private long sumRolling;
        private long hash;

        @Override
        public void invoke(Tuple2<String, Long> v, Context ctx) {
            long c = v.f1;
            records++;
            sumRolling += c;
            if (c == 1) {
                keys++;
                hash += Checksums.wordEntry(v.f0, 1);
            } else {
                hash += Checksums.wordEntry(v.f0, c) - Checksums.wordEntry(v.f0, c - 1);
            }
        }

        @Override
        public void close() {
            getRuntimeContext().addAccumulator("records", new LongCounter(records));
            getRuntimeContext().addAccumulator("keys", new LongCounter(keys));
            getRuntimeContext().addAccumulator("sum_rolling_counts", new LongCounter(sumRolling));
            getRuntimeContext().addAccumulator("hash", new LongCounter(hash));
        }
    }

    /** The W1/W2/W4 result computed sequentially: distinct keys, sum of rolling counts, checksum. */
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

    /** The incremental per-window count. */
    static final class CountAgg implements AggregateFunction<String, Long, Long> {
        private static final long serialVersionUID = 1L;

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

    /** Emits {@code (key, window start, count)}. */
    static final class EmitWindow extends ProcessWindowFunction<Long, Tuple3<String, Long, Long>, String, TimeWindow> {
        private static final long serialVersionUID = 1L;

        @Override
        public void process(String key, Context ctx, Iterable<Long> counts, Collector<Tuple3<String, Long, Long>> out) {
            out.collect(Tuple3.of(key, ctx.window().getStart(), counts.iterator().next()));
        }
    }

    /** Discards the window results but keeps counters: results, sum of counts, result hash. */
    static final class WindowSink extends ChecksumSinkBase<Tuple3<String, Long, Long>> {
        private static final long serialVersionUID = 1L;
        private long results;
        private long sum;
        private long hash;

        @Override
        public void invoke(Tuple3<String, Long, Long> v, Context ctx) {
            results++;
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

    /** The W3 result computed sequentially: window results, sum of counts, checksum. */
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
