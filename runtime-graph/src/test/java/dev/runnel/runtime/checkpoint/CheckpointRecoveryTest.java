package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.Collector;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A keyed counting job over a paced deterministic source, checkpointing every 200 ms, whose counting function
 * throws at chosen records: after the restarts, every key's count is exactly right (exactly once) or at least
 * right (at least once), on both stores and with incremental RocksDB checkpoints.
 */
@Timeout(120)
class CheckpointRecoveryTest {

    private static final int RECORDS = 24_000;
    private static final int KEYS = 60;
    /** Records at which the counting function throws, once each. */
    private static final Set<Long> FAIL_AT = Set.of(7_001L, 16_003L);

    static final Map<Long, Long> MAX_COUNT = new ConcurrentHashMap<>();
    static final Set<Long> FAILED = ConcurrentHashMap.newKeySet();
    static final AtomicInteger THROWN = new AtomicInteger();
    /** Counter subtasks that started from a checkpoint (isRestored), over all attempts. */
    static final AtomicInteger RESTORED = new AtomicInteger();
    /** Records the counter processed over all attempts: a restart from scratch would process far more. */
    static final java.util.concurrent.atomic.AtomicLong PROCESSED = new java.util.concurrent.atomic.AtomicLong();

    @TempDir
    Path checkpointDir;

    @BeforeEach
    void reset() {
        MAX_COUNT.clear();
        FAILED.clear();
        THROWN.set(0);
        RESTORED.set(0);
        PROCESSED.set(0);
    }

    @ParameterizedTest(name = "{0} incremental={1} mode={2}")
    @CsvSource({
        "hashmap, false, EXACTLY_ONCE",
        "rocksdb, false, EXACTLY_ONCE",
        "rocksdb, true, EXACTLY_ONCE",
        "hashmap, false, AT_LEAST_ONCE"})
    void countsSurviveFailures(String backend, boolean incremental, String mode) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", backend);
        conf.setString("state.backend.incremental", Boolean.toString(incremental));
        conf.setString("state.checkpoints.dir", checkpointDir.toUri().toString());
        conf.setString("execution.checkpointing.interval", "200 ms");
        conf.setString("execution.checkpointing.mode", mode);
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "5");
        conf.setString("restart-strategy.fixed-delay.delay", "20 ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);

        env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, RateLimiterStrategy.perSecond(12_000), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "numbers")
                .keyBy(v -> v % KEYS)
                .process(new FailingCounter())
                .addSink(new MaxCountSink());
        env.execute("checkpoint recovery " + backend);

        assertThat(THROWN.get()).as("failures injected").isEqualTo(FAIL_AT.size());
        assertThat(RESTORED.get()).as("counter subtasks restored from a checkpoint").isEqualTo(2 * FAIL_AT.size());
        assertThat(PROCESSED.get()).as("records processed over all attempts (from scratch: about twice as many)")
                .isBetween((long) RECORDS, RECORDS * 3L / 2);
        assertThat(MAX_COUNT).hasSize(KEYS);
        long perKey = RECORDS / KEYS;
        if (mode.equals("EXACTLY_ONCE")) {
            assertThat(MAX_COUNT.values()).allSatisfy(count -> assertThat(count).isEqualTo(perKey));
        } else {
            assertThat(MAX_COUNT.values()).allSatisfy(count -> assertThat(count).isGreaterThanOrEqualTo(perKey));
        }
    }

    @Test
    void exhaustedRestartsFailWithTheCauseAndTheCount() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "100 ms");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "2");
        conf.setString("restart-strategy.fixed-delay.delay", "10 ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSequence(1, 10)
                .map(v -> {
                    if (v == 5) {
                        throw new IllegalStateException("always fails at 5");
                    }
                    return v;
                })
                .addSink(new SinkFunction<>() {});
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> env.execute("always failing"))
                .hasMessageContaining("after 2 restarts")
                .hasMessageContaining("always fails at 5");
    }

    /** Counts per key in keyed state; throws once at each record of {@link #FAIL_AT}. */
    static final class FailingCounter extends KeyedProcessFunction<Long, Long, Tuple2<Long, Long>>
            implements dev.runnel.streaming.api.checkpoint.CheckpointedFunction {
        private transient ValueState<Long> count;

        @Override
        public void initializeState(dev.runnel.runtime.state.FunctionInitializationContext context) {
            if (context.isRestored()) {
                RESTORED.incrementAndGet();
            }
        }

        @Override
        public void snapshotState(dev.runnel.runtime.state.FunctionSnapshotContext context) {}

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out) throws Exception {
            PROCESSED.incrementAndGet();
            if (FAIL_AT.contains(value) && FAILED.add(value)) {
                THROWN.incrementAndGet();
                throw new IllegalStateException("injected failure at record " + value);
            }
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(Tuple2.of(ctx.getCurrentKey(), next));
        }
    }

    /** Keeps the highest count seen per key: a lost record shows as a lower one, a counted-twice as a higher one. */
    static final class MaxCountSink implements SinkFunction<Tuple2<Long, Long>> {
        @Override
        public void invoke(Tuple2<Long, Long> value, Context context) {
            MAX_COUNT.merge(value.f0, value.f1, Math::max);
        }
    }
}
