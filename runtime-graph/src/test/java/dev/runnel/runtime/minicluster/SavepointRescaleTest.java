package dev.runnel.runtime.minicluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.core.execution.JobClient;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.Collector;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A keyed job with state and event-time timers, stopped with a savepoint at parallelism 4, restored at 2, at
 * 7 and back at 4 (on one store, or alternating heap and RocksDB through the CANONICAL format): the final
 * per-key counts are those of an uninterrupted run, and every timer fired exactly once, at its time.
 */
@Timeout(180)
class SavepointRescaleTest {

    private static final long RECORDS = 24_000;
    private static final int KEYS = 40;
    private static final long TIMER_DELAY = 300;

    static final AtomicLong PROCESSED = new AtomicLong();
    static final Map<Long, Long> COUNTS = new ConcurrentHashMap<>();
    /** key -> timer timestamps fired (a duplicate shows as a second entry). */
    static final Map<Long, List<Long>> FIRED = new ConcurrentHashMap<>();
    static final Set<String> LATE_OR_EARLY = ConcurrentHashMap.newKeySet();

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        PROCESSED.set(0);
        COUNTS.clear();
        FIRED.clear();
        LATE_OR_EARLY.clear();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"hashmap hashmap hashmap hashmap", "rocksdb rocksdb rocksdb rocksdb", "hashmap rocksdb hashmap rocksdb"})
    void stateAndTimersContinueExactlyAcrossParallelismsAndStores(String backends) throws Exception {
        String[] stores = backends.split(" ");
        int[] parallelisms = {4, 2, 7, 4};
        long[] stopAt = {RECORDS / 5, RECORDS * 2 / 5, RECORDS * 3 / 5};
        String savepoint = null;
        for (int stage = 0; stage < parallelisms.length; stage++) {
            StreamExecutionEnvironment env = environment(stores[stage], parallelisms[stage], savepoint);
            job(env);
            JobClient client = env.executeAsync("stage " + stage);
            if (stage < stopAt.length) {
                long threshold = stopAt[stage];
                while (PROCESSED.get() < threshold) {
                    Thread.sleep(5);
                }
                savepoint = client.stopWithSavepoint(false, dir.resolve("savepoints").toString(),
                        SavepointFormatType.CANONICAL).get(60, TimeUnit.SECONDS);
            }
            client.getJobExecutionResult().get(90, TimeUnit.SECONDS);
        }

        assertThat(COUNTS).hasSize(KEYS);
        assertThat(COUNTS.values()).allSatisfy(c -> assertThat(c).isEqualTo(RECORDS / KEYS));
        assertThat(FIRED).hasSize(KEYS);
        for (Map.Entry<Long, List<Long>> timers : FIRED.entrySet()) {
            assertThat(timers.getValue()).as("timers of key %s", timers.getKey()).doesNotHaveDuplicates()
                    .hasSize((int) (RECORDS / KEYS));
        }
        assertThat(LATE_OR_EARLY).isEmpty();
        assertThat(PROCESSED.get()).as("no record processed twice").isEqualTo(RECORDS);
    }

    private StreamExecutionEnvironment environment(String backend, int parallelism, String savepoint) {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", backend);
        conf.setString("execution.checkpointing.dir", dir.resolve("checkpoints").toString());
        if (savepoint != null) {
            conf.setString("execution.state-recovery.path", savepoint);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.setMaxParallelism(128);
        return env;
    }

    private static void job(StreamExecutionEnvironment env) {
        env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, RateLimiterStrategy.perSecond(12_000), Types.LONG),
                        WatermarkStrategy.<Long>forMonotonousTimestamps().withTimestampAssigner((v, ts) -> v),
                        "numbers").uid("numbers")
                .keyBy(v -> v % KEYS)
                .process(new CountWithTimers()).uid("counter")
                .addSink(new SinkFunction<Tuple3<Long, Long, Long>>() {
                    @Override
                    public void invoke(Tuple3<Long, Long, Long> value, Context context) {
                        if (value.f2 < 0) {
                            COUNTS.merge(value.f0, value.f1, Math::max);
                        } else {
                            FIRED.computeIfAbsent(value.f0, k -> new java.util.concurrent.CopyOnWriteArrayList<>())
                                    .add(value.f1);
                            if (!value.f1.equals(value.f2)) {
                                LATE_OR_EARLY.add(value.toString());
                            }
                        }
                    }
                }).uid("sink");
    }

    /** Counts per key and sets an event-time timer per record; emits (key, count, -1) and (key, timer, firing time). */
    static final class CountWithTimers extends KeyedProcessFunction<Long, Long, Tuple3<Long, Long, Long>> {
        private transient ValueState<Long> count;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple3<Long, Long, Long>> out) throws Exception {
            PROCESSED.incrementAndGet();
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            ctx.timerService().registerEventTimeTimer(value + TIMER_DELAY);
            out.collect(Tuple3.of(ctx.getCurrentKey(), next, -1L));
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Tuple3<Long, Long, Long>> out) {
            out.collect(Tuple3.of(ctx.getCurrentKey(), timestamp, ctx.timestamp()));
        }
    }
}
