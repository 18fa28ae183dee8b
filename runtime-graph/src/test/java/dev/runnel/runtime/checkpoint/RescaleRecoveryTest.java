package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.runtime.state.FunctionInitializationContext;
import dev.runnel.runtime.state.FunctionSnapshotContext;
import dev.runnel.streaming.api.checkpoint.CheckpointedFunction;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Rescaling end to end: a keyed counting job over a paced deterministic source checkpoints every 100 ms with
 * {@code RETAIN_ON_CANCELLATION} and fails half way without restarts; a second job at another parallelism
 * starts from the retained {@code chk-N} folder ({@code execution.state-recovery.path}). Its final count per
 * key must equal that of an uninterrupted run: keyed state, the source readers' splits and the enumerator
 * all moved to the new parallelism, exactly once.
 */
@Timeout(180)
class RescaleRecoveryTest {

    private static final int RECORDS = 24_000;
    private static final int KEYS = 60;

    static final Map<Long, Long> MAX_COUNT = new ConcurrentHashMap<>();
    static final AtomicInteger RESTORED = new AtomicInteger();
    static final AtomicLong PROCESSED = new AtomicLong();
    /** The counter throws once it processed this many records in a job; 0: never. */
    static final AtomicLong FAIL_AFTER = new AtomicLong();

    private static Map<Long, Long> uninterrupted;

    @TempDir
    Path checkpointDir;

    @BeforeAll
    static void runUninterrupted() throws Exception {
        reset();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(new Configuration());
        env.setParallelism(3);
        build(env, "counter");
        env.execute("rescale baseline");
        uninterrupted = new HashMap<>(MAX_COUNT);
        assertThat(uninterrupted).hasSize(KEYS);
    }

    @BeforeEach
    void resetCounters() {
        reset();
    }

    private static void reset() {
        MAX_COUNT.clear();
        RESTORED.set(0);
        PROCESSED.set(0);
        FAIL_AFTER.set(0);
    }

    private static void build(StreamExecutionEnvironment env, String counterUid) {
        env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, RateLimiterStrategy.perSecond(12_000), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "numbers")
                .uid("numbers")
                .keyBy(v -> v % KEYS)
                .process(new Counter())
                .uid(counterUid)
                .addSink(new MaxCountSink());
    }

    private Configuration configuration(String backend, boolean incremental) {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", backend);
        conf.setString("state.backend.incremental", Boolean.toString(incremental));
        conf.setString("state.checkpoints.dir", checkpointDir.toUri().toString());
        conf.setString("execution.checkpointing.interval", "100 ms");
        conf.setString("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
        conf.setString("restart-strategy.type", "none");
        return conf;
    }

    /** Runs the job at {@code parallelism} until it fails half way; returns the retained checkpoint's folder. */
    private Path runHalfWayAndFail(String backend, boolean incremental, int parallelism) throws Exception {
        FAIL_AFTER.set(RECORDS / 2);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                configuration(backend, incremental));
        env.setParallelism(parallelism);
        build(env, "counter");
        assertThatThrownBy(() -> env.execute("rescale, first part")).hasMessageContaining("injected failure");
        FAIL_AFTER.set(0);
        return latestRetainedCheckpoint();
    }

    private Path latestRetainedCheckpoint() throws IOException {
        try (Stream<Path> files = Files.walk(checkpointDir)) {
            return files.filter(f -> f.getFileName().toString().equals("_metadata"))
                    .map(Path::getParent)
                    .filter(dir -> dir.getFileName().toString().startsWith("chk-"))
                    .max(Comparator.comparingLong(dir -> Long.parseLong(dir.getFileName().toString().substring(4))))
                    .orElseThrow(() -> new AssertionError("no checkpoint retained under " + checkpointDir));
        }
    }

    @ParameterizedTest(name = "{0} incremental={1} {2} -> {3}")
    @CsvSource({
        "hashmap, false, 4, 2",
        "hashmap, false, 2, 3",
        "rocksdb, false, 4, 2",
        "rocksdb, false, 2, 3",
        "rocksdb, true, 4, 2",
        "rocksdb, true, 2, 3"})
    void countsAfterARestoreAtAnotherParallelismEqualAnUninterruptedRun(String backend, boolean incremental, int oldP,
            int newP) throws Exception {
        Path checkpoint = runHalfWayAndFail(backend, incremental, oldP);
        long processedBefore = PROCESSED.getAndSet(0);
        assertThat(processedBefore).isGreaterThanOrEqualTo(RECORDS / 2);

        Configuration conf = configuration(backend, incremental);
        conf.setString("execution.state-recovery.path", checkpoint.toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(newP);
        build(env, "counter");
        env.execute("rescale, second part");

        assertThat(RESTORED.get()).as("counter subtasks started from the checkpoint").isEqualTo(newP);
        assertThat(PROCESSED.get()).as("records the second job processed: it resumed, it did not start over")
                .isLessThan(RECORDS);
        assertThat(MAX_COUNT).isEqualTo(uninterrupted);
    }

    @Test
    void stateOfAnOperatorTheJobLacksFailsTheStartNamingIt() throws Exception {
        Path checkpoint = runHalfWayAndFail("hashmap", false, 2);
        Configuration conf = configuration("hashmap", false);
        conf.setString("execution.savepoint.path", checkpoint.toString()); // Flink's older key
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(3);
        build(env, "counter-renamed");
        assertThatThrownBy(() -> env.execute("rescale, renamed counter"))
                .hasMessageContaining("holds state of operator counter, which the job does not have")
                .hasMessageContaining("execution.state-recovery.ignore-unclaimed-state");

        reset();
        conf.setString("execution.state-recovery.ignore-unclaimed-state", "true");
        StreamExecutionEnvironment ignoring = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        ignoring.setParallelism(3);
        build(ignoring, "counter-renamed");
        ignoring.execute("rescale, renamed counter, state dropped");
        // the source resumed (fewer records than a fresh start), the renamed counter started empty
        assertThat(PROCESSED.get()).isLessThan(RECORDS);
        assertThat(MAX_COUNT).hasSize(KEYS);
        assertThat(MAX_COUNT.values()).allSatisfy(count -> assertThat(count).isLessThan(RECORDS / KEYS));
    }

    @Test
    void aChangedMaxParallelismFailsTheStartNamingTheOperatorAndBothValues() throws Exception {
        Path checkpoint = runHalfWayAndFail("hashmap", false, 2);
        Configuration conf = configuration("hashmap", false);
        conf.setString("execution.state-recovery.path", checkpoint.toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(3);
        env.setMaxParallelism(256);
        build(env, "counter");
        assertThatThrownBy(() -> env.execute("rescale, other max parallelism"))
                .hasMessageContaining("Cannot restore operator")
                .hasMessageContaining("max parallelism 128")
                .hasMessageContaining("max parallelism 256");
    }

    /** Counts per key in keyed state; throws once the job processed {@link #FAIL_AFTER} records. */
    static final class Counter extends KeyedProcessFunction<Long, Long, Tuple2<Long, Long>>
            implements CheckpointedFunction {
        private transient ValueState<Long> count;

        @Override
        public void initializeState(FunctionInitializationContext context) {
            if (context.isRestored()) {
                RESTORED.incrementAndGet();
            }
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {}

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out) throws Exception {
            long processed = PROCESSED.incrementAndGet();
            long failAfter = FAIL_AFTER.get();
            if (failAfter > 0 && processed >= failAfter) {
                throw new IllegalStateException("injected failure after " + processed + " records");
            }
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(Tuple2.of(ctx.getCurrentKey(), next));
        }
    }

    /** Keeps the highest count per key: a lost record shows as a lower one, one counted twice as a higher one. */
    static final class MaxCountSink implements SinkFunction<Tuple2<Long, Long>> {
        @Override
        public void invoke(Tuple2<Long, Long> value, Context context) {
            MAX_COUNT.merge(value.f0, value.f1, Math::max);
        }
    }
}
