package dev.runnel.runtime.minicluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.JobStatus;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.core.execution.JobClient;
import dev.runnel.runtime.state.FunctionInitializationContext;
import dev.runnel.runtime.state.FunctionSnapshotContext;
import dev.runnel.streaming.api.checkpoint.CheckpointedFunction;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * An in-place rescale of a RocksDB job hands the stores' files over: each new counter subtask opens its
 * database on hard links of the files the old stores left next to their working directories (the same
 * inodes), state and timers come out exact (every key's count, every timer fired once), and the handed-over
 * folders are gone once the new tasks restored.
 */
@Timeout(120)
class InPlaceRescaleRocksDBHandoverTest {

    private static final long RECORDS = 30_000;
    private static final int KEYS = 50;

    static final AtomicLong PROCESSED = new AtomicLong();
    static final Map<Long, Long> COUNTS = new ConcurrentHashMap<>();
    /** How often the timer of each timestamp fired. */
    static final Map<Long, Integer> FIRED = new ConcurrentHashMap<>();
    /**
     * Per restored counter subtask ("parallelism/index"): how many SST files of its own database share an inode
     * with a handed-over file, seen in open(), after its restore and before the job deletes the handover.
     */
    static final Map<String, Integer> LINKED = new ConcurrentHashMap<>();
    static final Set<String> SUBTASKS = ConcurrentHashMap.newKeySet();
    static volatile Path localDir;

    @BeforeEach
    void reset() {
        PROCESSED.set(0);
        COUNTS.clear();
        FIRED.clear();
        LINKED.clear();
        SUBTASKS.clear();
    }

    /** RocksDB with its working directories in {@code dir}, parallelism 2, 128 key groups. */
    private StreamExecutionEnvironment environment(Path dir) {
        localDir = dir;
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", "rocksdb");
        conf.setString("state.backend.rocksdb.localdir", dir.toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.setMaxParallelism(128);
        return env;
    }

    /** The job before its sink: paced numbers, counted per key with a timer per record (uid "counter"). */
    private static dev.runnel.streaming.api.datastream.SingleOutputStreamOperator<Tuple2<Long, Long>> countersOf(
            StreamExecutionEnvironment env) {
        return env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, RateLimiterStrategy.perSecond(15_000),
                                Types.LONG),
                        WatermarkStrategy.<Long>forMonotonousTimestamps().withTimestampAssigner((v, ts) -> v),
                        "numbers").uid("numbers")
                .keyBy(v -> v % KEYS)
                .process(new CounterWithTimers()).uid("counter");
    }

    @Test
    void rescalingUpAndDownLinksTheOldFilesAndDeletesThemAfterwards(@TempDir Path dir) throws Exception {
        StreamExecutionEnvironment env = environment(dir);
        countersOf(env)
                .addSink(new SinkFunction<Tuple2<Long, Long>>() {
                    @Override
                    public void invoke(Tuple2<Long, Long> value, Context context) {
                        COUNTS.merge(value.f0, value.f1, Math::max);
                    }
                }).uid("sink");
        JobClient client = env.executeAsync("rocksdb handover");
        waitUntil(() -> PROCESSED.get() > RECORDS / 4);

        client.rescale(Map.of("counter", 4)).get(60, TimeUnit.SECONDS);
        waitUntil(() -> handoverFolders(dir).isEmpty());
        long atSecond = PROCESSED.get();
        waitUntil(() -> PROCESSED.get() > atSecond + RECORDS / 4);
        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
        client.rescale(Map.of("counter", 3)).get(60, TimeUnit.SECONDS);
        waitUntil(() -> handoverFolders(dir).isEmpty());
        client.getJobExecutionResult().get(60, TimeUnit.SECONDS);

        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
        assertThat(PROCESSED.get()).as("every record counted once").isEqualTo(RECORDS);
        assertThat(COUNTS).hasSize(KEYS);
        assertThat(COUNTS.values()).allSatisfy(c -> assertThat(c).isEqualTo(RECORDS / KEYS));
        assertThat(FIRED).as("a timer per record").hasSize((int) RECORDS);
        assertThat(FIRED.values()).as("every timer fired once").allSatisfy(n -> assertThat(n).isEqualTo(1));
        assertThat(SUBTASKS).as("the counter ran at 2, then 4, then 3").contains("2/1", "4/3", "3/2");
        assertThat(LINKED.keySet()).as("every restored subtask opened on handed-over files")
                .containsExactlyInAnyOrder("4/0", "4/1", "4/2", "4/3", "3/0", "3/1", "3/2");
        assertThat(LINKED.values()).allSatisfy(n -> assertThat(n).isPositive());
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.toList()).as("no working directory or handed-over file is left").isEmpty();
        }
    }

    @Test
    void aHandoverGivenUpLeavesNoFilesAndTheJobRunsOnExactly(@TempDir Path dir) throws Exception {
        DecliningSink.DECLINE.set(true);
        StreamExecutionEnvironment env = environment(dir);
        countersOf(env)
                // Its own task: the counters' handovers are written (and acknowledged) while this one declines.
                .addSink(new DecliningSink()).uid("sink").disableChaining();
        JobClient client = env.executeAsync("rocksdb handover declined");
        waitUntil(() -> PROCESSED.get() > RECORDS / 4);

        assertThatThrownBy(() -> client.rescale(Map.of("counter", 4, "sink", 4)).get(60, TimeUnit.SECONDS))
                .hasMessageContaining("declined");
        waitUntil(() -> handoverFolders(dir).isEmpty());
        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
        client.getJobExecutionResult().get(60, TimeUnit.SECONDS);

        assertThat(PROCESSED.get()).as("every record counted once").isEqualTo(RECORDS);
        assertThat(COUNTS.values()).hasSize(KEYS).allSatisfy(c -> assertThat(c).isEqualTo(RECORDS / KEYS));
        assertThat(FIRED.values()).hasSize((int) RECORDS).allSatisfy(n -> assertThat(n).isEqualTo(1));
        assertThat(SUBTASKS).as("the counter stayed at 2").allMatch(s -> s.startsWith("2/"));
        try (Stream<Path> left = Files.list(dir)) {
            assertThat(left.toList()).isEmpty();
        }
    }

    /** Keeps the latest count per key; declines every snapshot while {@link #DECLINE} is set (the first clears it). */
    static final class DecliningSink implements SinkFunction<Tuple2<Long, Long>>, CheckpointedFunction {
        static final AtomicBoolean DECLINE = new AtomicBoolean();

        @Override
        public void invoke(Tuple2<Long, Long> value, Context context) {
            COUNTS.merge(value.f0, value.f1, Math::max);
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            if (DECLINE.getAndSet(false)) {
                throw new IllegalStateException("this sink declines the snapshot");
            }
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}
    }

    private static List<Path> handoverFolders(Path dir) {
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.filter(p -> p.getFileName().toString().startsWith("rocksdb-handover-")).toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The inodes of the SST files directly in {@code folder}. */
    private static Set<Object> sstInodes(Path folder) throws IOException {
        Set<Object> inodes = new HashSet<>();
        try (Stream<Path> files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".sst")).toList()) {
                inodes.add(Files.getAttribute(file, "unix:ino"));
            }
        }
        return inodes;
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(5);
        }
    }

    static final class CounterWithTimers extends KeyedProcessFunction<Long, Long, Tuple2<Long, Long>> {
        private transient ValueState<Long> count;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) throws IOException {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
            int parallelism = getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks();
            int index = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            if (parallelism != 2) {
                LINKED.put(parallelism + "/" + index, linkedFiles(index));
            }
        }

        /** SST files of this subtask's database that are links of a handed-over file. */
        private static int linkedFiles(int index) throws IOException {
            Set<Object> handedOver = new HashSet<>();
            for (Path folder : handoverFolders(localDir)) {
                handedOver.addAll(sstInodes(folder));
            }
            List<Path> own;
            try (Stream<Path> entries = Files.list(localDir)) {
                own = entries.filter(p -> {
                    String name = p.getFileName().toString();
                    return name.startsWith("rocksdb-") && !name.startsWith("rocksdb-handover-")
                            && name.matches(".*-" + index + "-[0-9a-f]{8}");
                }).toList();
            }
            assertThat(own).as("the working directory of counter subtask %s", index).hasSize(1);
            Set<Object> mine = sstInodes(own.get(0));
            mine.retainAll(handedOver);
            return mine.size();
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out) throws Exception {
            PROCESSED.incrementAndGet();
            SUBTASKS.add(getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks() + "/"
                    + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            ctx.timerService().registerEventTimeTimer(value);
            out.collect(Tuple2.of(ctx.getCurrentKey(), next));
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Tuple2<Long, Long>> out) {
            FIRED.merge(timestamp, 1, Integer::sum);
        }
    }
}
