package dev.runnel.flinkpeer;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.Stream;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.connector.source.lib.NumberSequenceSource;
import org.apache.flink.configuration.CheckpointingOptions;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.configuration.StateBackendOptions;
import org.apache.flink.core.execution.SavepointFormatType;
import org.apache.flink.runtime.jobgraph.JobGraph;
import org.apache.flink.runtime.jobgraph.SavepointRestoreSettings;
import org.apache.flink.runtime.minicluster.MiniCluster;
import org.apache.flink.runtime.minicluster.MiniClusterConfiguration;
import org.apache.flink.runtime.util.EnvironmentInformation;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.streaming.api.functions.sink.v2.DiscardingSink;
import org.apache.flink.util.Collector;

/**
 * Runnel's {@code RescaleBench} (issue 12, docs/BENCHMARKS.md "In-place rescale") on Flink: the pause of
 * rescaling a running keyed job from 2 to 4 by stop-with-savepoint and a resubmission at parallelism 4
 * restored from it ({@link SavepointRestoreSettings#forPath}). The same job: a {@link NumberSequenceSource}
 * 0..N-1 at parallelism 2, keyed by {@code i % K}, max parallelism 128, a counter with a
 * {@code ValueState<Long>} (uid "counter"), a discarding sink; the same gap measurement and checks.
 *
 * <pre>
 *   FlinkPeer rescale [--keys K] [--records N] [--store heap|rocksdb] [--mode savepoint|none]
 * </pre>
 */
final class FlinkRescale {

    static final int MAX_PARALLELISM = 128;

    // Static: both jobs run in this JVM's MiniCluster and their subtasks add to the same totals.
    static final AtomicLong LAST_NANOS = new AtomicLong();
    static final LongAdder PROCESSED = new LongAdder();
    static final LongAdder DISTINCT = new LongAdder();
    static final LongAdder SUM_ROLLING = new LongAdder();
    static final LongAdder HASH = new LongAdder();
    static volatile boolean requested;
    static final Gap BEFORE = new Gap();
    static final Gap AFTER = new Gap();

    private FlinkRescale() {}

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

    static int main(String[] args) throws Exception {
        int keys = 1_000_000;
        long records = -1;
        String store = "heap";
        String mode = "savepoint";
        for (int i = 1; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : "";
            switch (args[i]) {
                case "--keys" -> { keys = (int) FlinkPeer.number(value, "--keys"); i++; }
                case "--records" -> { records = FlinkPeer.number(value, "--records"); i++; }
                case "--store" -> { store = value; i++; }
                case "--mode" -> { mode = value; i++; }
                case "--object-reuse" -> { } // compare.sh passes it; nothing here is reused across records
                default -> {
                    System.err.println("usage: FlinkPeer rescale [--keys K] [--records N] [--store heap|rocksdb] "
                            + "[--mode savepoint|none]");
                    return 2;
                }
            }
        }
        if (!store.equals("heap") && !store.equals("rocksdb") || !mode.equals("savepoint") && !mode.equals("none")) {
            System.err.println("--store heap|rocksdb, --mode savepoint|none (Flink has no in-place rescale)");
            return 2;
        }
        if (records < 0) {
            records = 5L * keys;
        }
        Path dir = Files.createTempDirectory("flink-rescale-bench-");
        MiniClusterConfiguration clusterConf = new MiniClusterConfiguration.Builder()
                .setConfiguration(new Configuration())
                .setNumTaskManagers(1)
                .setNumSlotsPerTaskManager(4) // the counter at 4 (the sources share slots with it)
                .withRandomPorts()
                .build();
        try (MiniCluster cluster = new MiniCluster(clusterConf)) {
            cluster.start();
            System.out.printf("INFO runtime=flink flink_version=%s workload=rescale store=%s mode=%s keys=%d records=%d "
                    + "parallelism=2->4 max_parallelism=%d java=%s%n", EnvironmentInformation.getVersion(), store,
                    mode, keys, records, MAX_PARALLELISM, System.getProperty("java.version"));
            long t0 = System.nanoTime();
            JobGraph first = jobGraph(store, 2, keys, records, null, dir);
            cluster.submitJob(first).get();
            while (DISTINCT.sum() < keys) {
                Thread.sleep(1);
            }
            long processedAtRequest = PROCESSED.sum();
            requested = mode.equals("savepoint");
            long request = System.nanoTime();
            long savepointDone = 0;
            long firstStopped = 0;
            long secondSubmitted = 0;
            if (requested) {
                String savepoint = cluster.stopWithSavepoint(first.getJobID(), dir.resolve("savepoints").toUri().toString(),
                        false, SavepointFormatType.CANONICAL).get(120, TimeUnit.SECONDS);
                savepointDone = System.nanoTime();
                cluster.requestJobResult(first.getJobID()).get(120, TimeUnit.SECONDS);
                firstStopped = System.nanoTime();
                JobGraph second = jobGraph(store, 4, keys, records, savepoint, dir);
                cluster.submitJob(second).get();
                secondSubmitted = System.nanoTime();
                cluster.requestJobResult(second.getJobID()).get(600, TimeUnit.SECONDS);
            } else {
                cluster.requestJobResult(first.getJobID()).get(600, TimeUnit.SECONDS);
            }
            long end = System.nanoTime();
            return report(keys, records, store, mode, t0, request, processedAtRequest, savepointDone, firstStopped,
                    secondSubmitted, end);
        } finally {
            deleteRecursively(dir);
        }
    }

    static JobGraph jobGraph(String store, int counterParallelism, int keys, long records, String savepoint, Path dir) {
        Configuration conf = new Configuration();
        conf.set(StateBackendOptions.STATE_BACKEND, store.equals("heap") ? "hashmap" : "rocksdb");
        // The default JobManager storage refuses state over 5 MB; 1 M keys need files, as Runnel writes them.
        conf.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
        conf.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, dir.resolve("checkpoints").toUri().toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(counterParallelism);
        env.setMaxParallelism(MAX_PARALLELISM);
        long k = keys;
        env.fromSource(new NumberSequenceSource(0, records - 1), WatermarkStrategy.noWatermarks(), "numbers")
                .setParallelism(2).uid("numbers")
                .keyBy(v -> v % k, Types.LONG)
                .process(new Counter()).uid("counter")
                .sinkTo(new DiscardingSink<>()).uid("sink");
        JobGraph graph = env.getStreamGraph().getJobGraph();
        if (savepoint != null) {
            graph.setSavepointRestoreSettings(SavepointRestoreSettings.forPath(savepoint));
        }
        return graph;
    }

    static final class Counter extends KeyedProcessFunction<Long, Long, Long> {
        private static final long serialVersionUID = 1L;
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Long> out) throws Exception {
            long now = System.nanoTime();
            long previous = LAST_NANOS.getAndSet(now);
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
            long processedAtRequest, long savepointDone, long firstStopped, long secondSubmitted, long end) {
        long[] e = expected(keys, records);
        long processed = PROCESSED.sum();
        boolean ok = processed == records && DISTINCT.sum() == e[0] && SUM_ROLLING.sum() == e[1] && HASH.sum() == e[2];
        boolean rescaling = !mode.equals("none");
        ok &= !rescaling || processedAtRequest < records && AFTER.max > 0;
        System.out.printf("CHECK processed=%d distinct_keys=%d sum_rolling=%d checksum=%s "
                        + "expected(keys/sum/checksum)=%d/%d/%s processed_at_request=%d ok=%s%n",
                processed, DISTINCT.sum(), SUM_ROLLING.sum(), Checksums.hex(HASH.sum()), e[0], e[1],
                Checksums.hex(e[2]), processedAtRequest, ok);
        System.out.printf(Locale.ROOT, "PHASES request_after_start_ms=%.1f last_old_record_ms=%.1f "
                        + "first_new_record_ms=%.1f savepoint_future_ms=%s first_job_ended_ms=%s "
                        + "second_job_submitted_ms=%s job_end_ms=%.1f baseline_gap_at_ms=%.1f%n",
                ms(request - t0), ms(AFTER.start - request), ms(AFTER.end - request), rel(savepointDone, request),
                rel(firstStopped, request), rel(secondSubmitted, request), ms(end - request), ms(BEFORE.end - t0));
        double pause = rescaling ? ms(AFTER.max) : ms(Math.max(AFTER.max, BEFORE.max));
        System.out.printf(Locale.ROOT, "RESULT workload=rescale store=%s mode=%s keys=%d pause_ms=%.1f "
                + "baseline_max_gap_ms=%.1f ok=%s flink=%s%n", store, mode, keys, pause, ms(BEFORE.max), ok,
                EnvironmentInformation.getVersion());
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
