package dev.runnel.runtime.minicluster;

import static dev.runnel.runtime.minicluster.CheckpointTestProbes.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.state.CheckpointListener;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.CheckpointingOptions;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.metrics.Counter;
import dev.runnel.metrics.Metric;
import dev.runnel.runtime.checkpoint.Checkpoints;
import dev.runnel.runtime.checkpoint.OperatorState;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.state.FunctionInitializationContext;
import dev.runnel.runtime.state.FunctionSnapshotContext;
import dev.runnel.runtime.state.InputChannelStateHandle;
import dev.runnel.streaming.api.checkpoint.CheckpointedFunction;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.runtime.tasks.StreamTask;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The aligned checkpoint timeout with unaligned checkpoints enabled, on a job whose keyed channels are full at
 * every barrier (an unthrottled source into a deliberately slow counter; without a timeout, the same job's
 * checkpoints persist thousands of in-flight records). With a timeout far longer than an alignment takes,
 * checkpoints stay aligned: nothing in flight is persisted; each way of setting it (typed option, string key,
 * Flink's deprecated key, {@code CheckpointConfig}) reaches the tasks, since a timeout that got lost would leave
 * the default, 0, unaligned from the start. With a timeout shorter than the barriers wait in the queues,
 * checkpoints switch to unaligned, persist in-flight records, and a restore from one at another parallelism
 * gives exact counts.
 */
@Timeout(180)
class AlignedCheckpointTimeoutTest {

    private static final int RECORDS = 100_000;
    private static final int KEYS = 50;
    private static final long FAIL_AFTER = 15_000;
    /** Only checkpoints the counter snapshots after this many records count: by then its channels are full. */
    private static final long MID_STREAM = 5_000;

    static final AtomicLong PROCESSED = new AtomicLong();
    static final AtomicBoolean FAIL = new AtomicBoolean();
    static final AtomicBoolean FAILED = new AtomicBoolean();

    @TempDir
    Path checkpointDir;

    @BeforeEach
    void reset() {
        CheckpointTestProbes.reset();
        PROCESSED.set(0);
        FAIL.set(false);
        FAILED.set(false);
    }

    private Configuration configuration() {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.dir", checkpointDir.toUri().toString());
        conf.setString("execution.checkpointing.interval", "100 ms");
        conf.setString("execution.checkpointing.unaligned.enabled", "true");
        conf.setString("execution.checkpointing.externalized-checkpoint-retention", "RETAIN_ON_CANCELLATION");
        conf.setString("restart-strategy.type", "none");
        smallChannels(conf);
        return conf;
    }

    private static void keyedCount(StreamExecutionEnvironment env) {
        env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, Types.LONG), WatermarkStrategy.noWatermarks(),
                        "numbers")
                .uid("numbers")
                .keyBy(v -> v % KEYS)
                .process(new SlowFailingCounter())
                .uid("counter")
                .addSink(new MaxCountSink());
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"typed option", "string key", "deprecated key", "CheckpointConfig", "no timeout"})
    void aTimeoutLongerThanTheAlignmentKeepsCheckpointsAligned(String how) throws Exception {
        Configuration conf = configuration();
        switch (how) {
            case "typed option" -> conf.set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT, Duration.ofMinutes(10));
            case "string key" -> conf.setString("execution.checkpointing.aligned-checkpoint-timeout", "10 min");
            case "deprecated key" -> conf.setString("execution.checkpointing.alignment-timeout", "10 min");
            default -> { }
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        if (how.equals("CheckpointConfig")) {
            env.getCheckpointConfig().setAlignedCheckpointTimeout(Duration.ofMinutes(10));
            assertThat(env.getCheckpointConfig().getAlignedCheckpointTimeout()).isEqualTo(Duration.ofMinutes(10));
        }
        env.setParallelism(2);
        keyedCount(env);
        EmbeddedJob job = (EmbeddedJob) env.executeAsync("aligned checkpoint timeout: " + how);
        job.getJobExecutionResult().get(150, TimeUnit.SECONDS);

        assertThat(CHECKPOINT_COMPLETED).as("a checkpoint completed under backpressure").isTrue();
        assertThat(MAX_COUNT.values()).hasSize(KEYS)
                .allSatisfy(count -> assertThat(count).isEqualTo((long) RECORDS / KEYS));
        long persisted = sum(job, StreamTask.PERSISTED_IN_FLIGHT_RECORDS);
        if (how.equals("no timeout")) {
            assertThat(persisted).as("the control: unaligned from the start, in-flight records persisted")
                    .isPositive();
        } else {
            assertThat(persisted).as("aligned checkpoints persist no in-flight records").isZero();
        }
    }

    @Test
    void aTimeoutShorterThanTheBarriersWaitSwitchesToUnalignedAndRestoresExactly() throws Exception {
        FAIL.set(true);
        Configuration conf = configuration();
        conf.setString("execution.checkpointing.aligned-checkpoint-timeout", "10 ms");
        StreamExecutionEnvironment first = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        first.setParallelism(2);
        keyedCount(first);
        assertThatThrownBy(() -> first.execute("timed out alignment, first part"))
                .hasMessageContaining("injected failure");
        Path checkpoint = latestRetainedCheckpoint();
        assertThat(inFlightRecords(checkpoint)).as("in-flight records in %s", checkpoint).isPositive();

        FAIL.set(false);
        PROCESSED.set(0);
        Configuration again = configuration();
        again.setString("execution.checkpointing.aligned-checkpoint-timeout", "10 ms");
        again.setString("execution.state-recovery.path", checkpoint.toString());
        StreamExecutionEnvironment second = StreamExecutionEnvironment.getExecutionEnvironment(again);
        second.setParallelism(3);
        keyedCount(second);
        EmbeddedJob job = (EmbeddedJob) second.executeAsync("timed out alignment, second part");
        job.getJobExecutionResult().get(150, TimeUnit.SECONDS);

        assertThat(PROCESSED.get()).as("the second job resumed, it did not start over").isLessThan(RECORDS);
        assertThat(sum(job, StreamTask.RESTORED_IN_FLIGHT_RECORDS)).as("in-flight records replayed").isPositive();
        assertThat(MAX_COUNT).hasSize(KEYS);
        assertThat(MAX_COUNT.values()).as("no record lost or counted twice")
                .allSatisfy(count -> assertThat(count).isEqualTo((long) RECORDS / KEYS));
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

    private static long inFlightRecords(Path checkpoint) throws IOException {
        OperatorState state = Checkpoints.loadCheckpointMetadata(checkpoint.toString()).getOperatorStates()
                .get("counter");
        assertThat(state).as("state of the counter").isNotNull();
        long records = 0;
        for (OperatorSubtaskState subtask : state.getSubtaskStates().values()) {
            records += subtask.inputChannelState().stream().mapToLong(InputChannelStateHandle::records).sum();
        }
        return records;
    }

    private static long sum(EmbeddedJob job, String name) {
        long sum = 0;
        for (Map.Entry<String, Metric> metric : job.metrics().getAllMetrics().entrySet()) {
            if (metric.getKey().endsWith("." + name)) {
                sum += ((Counter) metric.getValue()).getCount();
            }
        }
        return sum;
    }

    /** Counts per key in keyed state, slowly (so the channels into it stay full); throws once when told to. */
    static final class SlowFailingCounter extends KeyedProcessFunction<Long, Long, Tuple2<Long, Long>>
            implements CheckpointListener, CheckpointedFunction {
        private transient ValueState<Long> count;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out) throws Exception {
            LockSupport.parkNanos(20_000);
            long processed = PROCESSED.incrementAndGet();
            if (FAIL.get() && processed >= FAIL_AFTER && CHECKPOINT_COMPLETED.get()
                    && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure at record " + value);
            }
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(Tuple2.of(ctx.getCurrentKey(), next));
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {
            snapshotTaken(context.getCheckpointId(), PROCESSED.get(), MID_STREAM);
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {}

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            checkpointCompleted(checkpointId);
        }
    }

}
