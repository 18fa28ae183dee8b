package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.co.KeyedCoProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.Collector;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A keyed two-input job whose inputs run at very different speeds, with aligned checkpoints and one injected
 * failure: the fast input's records after a barrier must not reach the snapshot (they would be counted twice
 * after the restore), and event-time timers registered before a checkpoint fire after the restore exactly
 * once, as the per-key counts of fired timers in keyed state show.
 */
@Timeout(120)
class TwoInputRecoveryTest {

    private static final int FAST = 30_000;
    private static final int SLOW = 3_000;
    private static final int KEYS = 20;

    /** Per key: the highest (fast count, fired timers) seen. */
    static final Map<Long, long[]> RESULTS = new ConcurrentHashMap<>();
    static final AtomicBoolean FAILED = new AtomicBoolean();

    @TempDir
    Path checkpoints;

    @BeforeEach
    void reset() {
        RESULTS.clear();
        FAILED.set(false);
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashmap", "rocksdb"})
    void alignedCountsAndTimersAreExactAfterARestore(String backend) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", backend);
        conf.setString("state.checkpoints.dir", checkpoints.toString());
        conf.setString("execution.checkpointing.interval", "150 ms");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "3");
        conf.setString("restart-strategy.fixed-delay.delay", "10 ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);

        WatermarkStrategy<Long> byValue = WatermarkStrategy.<Long>forBoundedOutOfOrderness(Duration.ZERO)
                .withTimestampAssigner((v, ts) -> v);
        DataStream<Long> fast = env.fromSource(new DataGeneratorSource<>(i -> i, FAST,
                RateLimiterStrategy.perSecond(20_000), Types.LONG), byValue, "fast");
        DataStream<Long> slow = env.fromSource(new DataGeneratorSource<>(i -> i, SLOW,
                RateLimiterStrategy.perSecond(2_000), Types.LONG), byValue, "slow");
        fast.connect(slow)
                .keyBy(v -> v % KEYS, v -> v % KEYS)
                .process(new CountAndTimers())
                .addSink(new SinkFunction<Tuple3<Long, Long, Long>>() {
                    @Override
                    public void invoke(Tuple3<Long, Long, Long> value, Context context) {
                        RESULTS.merge(value.f0, new long[] {value.f1, value.f2},
                                (a, b) -> new long[] {Math.max(a[0], b[0]), Math.max(a[1], b[1])});
                    }
                });
        env.execute("two inputs " + backend);

        assertThat(FAILED).isTrue();
        assertThat(RESULTS).hasSize(KEYS);
        assertThat(RESULTS.values()).allSatisfy(r -> {
            assertThat(r[0]).as("fast records counted").isEqualTo(FAST / KEYS);
            assertThat(r[1]).as("timers fired").isEqualTo(SLOW / KEYS);
        });
    }

    /** Counts the fast input; each slow record registers an event-time timer whose firing is counted. */
    static final class CountAndTimers extends KeyedCoProcessFunction<Long, Long, Long, Tuple3<Long, Long, Long>> {
        private transient ValueState<Long> fastCount;
        private transient ValueState<Long> fired;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            fastCount = getRuntimeContext().getState(new ValueStateDescriptor<>("fast", Types.LONG));
            fired = getRuntimeContext().getState(new ValueStateDescriptor<>("fired", Types.LONG));
        }

        @Override
        public void processElement1(Long value, Context ctx, Collector<Tuple3<Long, Long, Long>> out) throws Exception {
            if (value == FAST / 2 && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure at fast record " + value);
            }
            long next = orZero(fastCount.value()) + 1;
            fastCount.update(next);
            out.collect(Tuple3.of(ctx.getCurrentKey(), next, orZero(fired.value())));
        }

        @Override
        public void processElement2(Long value, Context ctx, Collector<Tuple3<Long, Long, Long>> out) {
            ctx.timerService().registerEventTimeTimer(value + 1);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Tuple3<Long, Long, Long>> out) throws Exception {
            long next = orZero(fired.value()) + 1;
            fired.update(next);
            out.collect(Tuple3.of(ctx.getCurrentKey(), orZero(fastCount.value()), next));
        }

        private static long orZero(Long value) {
            return value == null ? 0 : value;
        }
    }
}
