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
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.checkpoint.CompletedCheckpoint;
import dev.runnel.runtime.state.storage.FileSystemCheckpointStorage;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.util.Collector;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Savepoints of running jobs: taken while the job goes on, and taken to stop it, with and without drain. */
@Timeout(120)
class SavepointTest {

    private static final long RECORDS = 40_000;
    static final AtomicLong PROCESSED = new AtomicLong();
    static final Map<Long, Long> WINDOW_SUMS = new ConcurrentHashMap<>();

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        PROCESSED.set(0);
        WINDOW_SUMS.clear();
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"hashmap, CANONICAL", "rocksdb, CANONICAL", "rocksdb, NATIVE"})
    void aSavepointOfARunningJobHoldsEveryOperatorsStateAndTheJobGoesOn(String backend, SavepointFormatType format)
            throws Exception {
        StreamExecutionEnvironment env = environment(backend);
        countingJob(env, RECORDS, 20_000);
        JobClient client = env.executeAsync("savepoint while running");
        waitUntil(() -> PROCESSED.get() > 2_000);
        String path = client.triggerSavepoint(dir.resolve("savepoints").toString(), format).get(60, TimeUnit.SECONDS);

        assertThat(Path.of(path)).isDirectory().startsWith(dir.resolve("savepoints"));
        assertThat(Path.of(path).resolve("_metadata")).isRegularFile();
        CompletedCheckpoint savepoint = new FileSystemCheckpointStorage(dir.resolve("checkpoints").toString())
                .createCheckpointStorage("reader").loadCheckpoint(path);
        assertThat(savepoint.getProperties().savepoint()).isTrue();
        assertThat(savepoint.getProperties().savepointFormat()).isEqualTo(format);
        assertThat(savepoint.getOperatorStates().values())
                .anySatisfy(op -> assertThat(op.getSubtaskStates().values())
                        .anySatisfy(s -> assertThat(s.managedKeyedState()).isNotEmpty()))
                .anySatisfy(op -> assertThat(op.getCoordinatorState()).isNotNull());
        client.getJobExecutionResult().get(60, TimeUnit.SECONDS);
        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
        assertThat(PROCESSED.get()).isEqualTo(RECORDS);
        // the savepoint is the user's: still there after the job ended
        assertThat(Path.of(path).resolve("_metadata")).isRegularFile();
    }

    @ParameterizedTest(name = "drain={0}")
    @CsvSource({"false", "true"})
    void stopWithSavepointEndsTheJobFinishedAndDrainFiresTheWindows(boolean drain) throws Exception {
        StreamExecutionEnvironment env = environment("hashmap");
        long records = 10_000_000;
        env.fromSource(new DataGeneratorSource<>(i -> i, records, RateLimiterStrategy.perSecond(20_000), Types.LONG),
                        WatermarkStrategy.<Long>forMonotonousTimestamps().withTimestampAssigner((v, ts) -> v),
                        "numbers")
                .map(v -> {
                    PROCESSED.incrementAndGet();
                    return v;
                })
                .keyBy(v -> v % 4)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(1_000_000)))
                .reduce(Long::sum)
                .addSink(new SinkFunction<Long>() {
                    @Override
                    public void invoke(Long value, Context context) {
                        WINDOW_SUMS.merge(value % 4, value, Long::sum);
                    }
                });
        JobClient client = env.executeAsync("stop with savepoint");
        waitUntil(() -> PROCESSED.get() > 5_000);
        String path = client.stopWithSavepoint(drain, dir.resolve("savepoints").toString(), SavepointFormatType.CANONICAL)
                .get(60, TimeUnit.SECONDS);
        client.getJobExecutionResult().get(60, TimeUnit.SECONDS);

        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
        assertThat(Path.of(path).resolve("_metadata")).isRegularFile();
        assertThat(PROCESSED.get()).as("the job stopped long before its end").isLessThan(records / 2);
        if (drain) {
            // the first window (values below 1 000 000) fired at the drain's maximum watermark
            assertThat(WINDOW_SUMS).isNotEmpty();
        } else {
            assertThat(WINDOW_SUMS).as("no watermark reached the window's end").isEmpty();
        }
    }

    @org.junit.jupiter.api.Test
    void aSavepointWithoutADirectoryFailsNamingTheKey() throws Exception {
        StreamExecutionEnvironment env = environment("hashmap");
        countingJob(env, RECORDS, 20_000);
        JobClient client = env.executeAsync("no savepoint directory");
        waitUntil(() -> PROCESSED.get() > 1_000);
        assertThatThrownBy(() -> client.triggerSavepoint(null, SavepointFormatType.CANONICAL).get(60, TimeUnit.SECONDS))
                .hasMessageContaining("No savepoint directory");
        client.getJobExecutionResult().get(60, TimeUnit.SECONDS);
        assertThat(client.getJobStatus().get()).isEqualTo(JobStatus.FINISHED);
    }

    private StreamExecutionEnvironment environment(String backend) {
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", backend);
        conf.setString("execution.checkpointing.dir", dir.resolve("checkpoints").toString());
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        return env;
    }

    private static void countingJob(StreamExecutionEnvironment env, long records, double perSecond) {
        env.fromSource(new DataGeneratorSource<>(i -> i, records, RateLimiterStrategy.perSecond(perSecond), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "numbers")
                .keyBy(v -> v % 50)
                .process(new KeyedProcessFunction<Long, Long, Tuple2<Long, Long>>() {
                    private transient ValueState<Long> count;

                    @Override
                    public void open(dev.runnel.api.common.functions.OpenContext context) {
                        count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
                    }

                    @Override
                    public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out)
                            throws Exception {
                        PROCESSED.incrementAndGet();
                        long next = (count.value() == null ? 0 : count.value()) + 1;
                        count.update(next);
                        out.collect(Tuple2.of(ctx.getCurrentKey(), next));
                    }
                })
                .addSink(new SinkFunction<Tuple2<Long, Long>>() {});
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(5);
        }
    }
}
