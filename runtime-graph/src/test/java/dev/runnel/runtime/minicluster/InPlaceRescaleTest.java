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
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.Collector;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** A running keyed job rescaled in place, up and down: every record counted exactly once, every key exact. */
@Timeout(120)
class InPlaceRescaleTest {

    private static final long RECORDS = 30_000;
    private static final int KEYS = 50;

    static final AtomicLong PROCESSED = new AtomicLong();
    static final Map<Long, Long> COUNTS = new ConcurrentHashMap<>();
    /** Which subtask indices of the counter processed records, as "parallelism/index". */
    static final Set<String> SUBTASKS = ConcurrentHashMap.newKeySet();

    @BeforeEach
    void reset() {
        PROCESSED.set(0);
        COUNTS.clear();
        SUBTASKS.clear();
    }

    @ParameterizedTest
    @ValueSource(strings = {"hashmap", "rocksdb"})
    void aRunningJobRescalesUpAndDownWithExactState(String backend) throws Exception {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", backend);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.setMaxParallelism(128);
        env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, RateLimiterStrategy.perSecond(15_000), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "numbers").uid("numbers")
                .keyBy(v -> v % KEYS)
                .process(new Counter()).uid("counter")
                .addSink(new SinkFunction<Tuple2<Long, Long>>() {
                    @Override
                    public void invoke(Tuple2<Long, Long> value, Context context) {
                        COUNTS.merge(value.f0, value.f1, Math::max);
                    }
                }).uid("sink");
        JobClient client = env.executeAsync("rescale in place " + backend);
        waitUntil(() -> PROCESSED.get() > RECORDS / 4);

        client.rescale(Map.of("counter", 4)).get(60, TimeUnit.SECONDS);
        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.RUNNING);
        long atSecond = PROCESSED.get();
        waitUntil(() -> PROCESSED.get() > atSecond + RECORDS / 4);
        client.rescale(Map.of("counter", 3)).get(60, TimeUnit.SECONDS);
        client.getJobExecutionResult().get(60, TimeUnit.SECONDS);

        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
        assertThat(PROCESSED.get()).as("every record counted once").isEqualTo(RECORDS);
        assertThat(COUNTS).hasSize(KEYS);
        assertThat(COUNTS.values()).allSatisfy(c -> assertThat(c).isEqualTo(RECORDS / KEYS));
        assertThat(SUBTASKS).as("the counter ran at 2, then 4, then 3").contains("2/1", "4/3", "3/2")
                .doesNotContain("3/3");
    }

    @org.junit.jupiter.api.Test
    void aBadRescaleIsRefusedAndTheJobRunsOn() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.fromSource(new DataGeneratorSource<>(i -> i, 5_000, RateLimiterStrategy.perSecond(10_000), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "numbers")
                .map(v -> v).uid("forwarded")
                .keyBy(v -> v % KEYS)
                .process(new Counter()).uid("counter")
                .addSink(new SinkFunction<Tuple2<Long, Long>>() {});
        JobClient client = env.executeAsync("bad rescale");
        assertThatThrownBy(() -> client.rescale(Map.of("nope", 3)).get(30, TimeUnit.SECONDS))
                .hasMessageContaining("no operator with uid 'nope'").hasMessageContaining("counter");
        assertThatThrownBy(() -> client.rescale(Map.of("counter", 1000)).get(30, TimeUnit.SECONDS))
                .hasMessageContaining("max parallelism");
        client.getJobExecutionResult().get(60, TimeUnit.SECONDS);
        assertThat(PROCESSED.get()).isEqualTo(5_000);
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(5);
        }
    }

    static final class Counter extends KeyedProcessFunction<Long, Long, Tuple2<Long, Long>> {
        private transient ValueState<Long> count;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out) throws Exception {
            PROCESSED.incrementAndGet();
            SUBTASKS.add(getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks() + "/"
                    + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask());
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(Tuple2.of(ctx.getCurrentKey(), next));
        }
    }
}
