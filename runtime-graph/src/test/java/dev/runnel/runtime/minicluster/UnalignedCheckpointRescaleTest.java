package dev.runnel.runtime.minicluster;

import static dev.runnel.runtime.minicluster.CheckpointTestProbes.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.state.CheckpointListener;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
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
import dev.runnel.streaming.api.functions.sink.DiscardingSink;
import dev.runnel.streaming.runtime.tasks.StreamTask;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Restoring an unaligned checkpoint at another parallelism: an unthrottled source feeds a deliberately slow
 * keyed counter, so the channels into it are full at every barrier; the job retains its checkpoints, fails
 * once without restarts, and a second job at another parallelism starts from the newest retained checkpoint.
 * That checkpoint must hold in-flight records (the case is not vacuous), the second job must replay some, and
 * every key's final count must be exact: the keyBy edge's RANGE mapper gives an old channel's records to every
 * new subtask whose key groups meet the old one's, and each keeps only its own keys. A forward edge never has
 * in-flight records (its barriers travel aligned); but one restored from a checkpoint taken while the edge was a
 * shuffle does, and cannot be rescaled: the restore fails with the advice to add a {@code shuffle()}.
 */
@Timeout(180)
class UnalignedCheckpointRescaleTest {

    private static final int RECORDS = 100_000;
    private static final int KEYS = 50;
    /** The slow operator throws at its first record after a completed mid-stream checkpoint and this many records. */
    private static final long FAIL_AFTER = 12_000;
    /**
     * Only a checkpoint the slow operator snapshots after this many records lets it fail: one triggered before
     * data flowed (on a slow start, over Netty) would hold no in-flight records and restore from the start.
     */
    private static final long MID_STREAM = 500;

    static final AtomicLong PROCESSED = new AtomicLong();
    static final AtomicBoolean FAIL = new AtomicBoolean();
    static final AtomicBoolean FAILED = new AtomicBoolean();

    @TempDir
    Path checkpointDir;

    @BeforeEach
    void reset() {
        CheckpointTestProbes.reset();
        PROCESSED.set(0);
        FAIL.set(true);
        FAILED.set(false);
    }

    private Configuration configuration() {
        Configuration conf = new Configuration();
        conf.setString("state.checkpoints.dir", checkpointDir.toUri().toString());
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

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"2, 3", "3, 2", "2, 1"})
    void exactCountsAfterARestoreOfInFlightRecordsAtAnotherParallelism(int oldParallelism, int newParallelism)
            throws Exception {
        StreamExecutionEnvironment first = StreamExecutionEnvironment.getExecutionEnvironment(configuration());
        first.setParallelism(oldParallelism);
        keyedCount(first);
        assertThatThrownBy(() -> first.execute("unaligned, first part")).hasMessageContaining("injected failure");
        Path checkpoint = latestRetainedCheckpoint();
        assertThat(inFlightRecords(checkpoint, "counter")).as("in-flight records in %s", checkpoint).isPositive();

        FAIL.set(false);
        PROCESSED.set(0);
        Configuration conf = configuration();
        conf.setString("execution.state-recovery.path", checkpoint.toString());
        StreamExecutionEnvironment second = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        second.setParallelism(newParallelism);
        keyedCount(second);
        EmbeddedJob job = (EmbeddedJob) second.executeAsync("unaligned, second part");
        job.getJobExecutionResult().get(150, TimeUnit.SECONDS);

        assertThat(PROCESSED.get()).as("the second job resumed, it did not start over").isLessThan(RECORDS);
        assertThat(sum(job, StreamTask.RESTORED_IN_FLIGHT_RECORDS)).as("in-flight records replayed").isPositive();
        assertThat(MAX_COUNT).hasSize(KEYS);
        assertThat(MAX_COUNT.values()).as("no record lost or counted twice")
                .allSatisfy(count -> assertThat(count).isEqualTo((long) RECORDS / KEYS));
    }

    @Test
    void inFlightRecordsOfAForwardEdgeFailARestoreAtAnotherParallelismWithTheAdviceToShuffle() throws Exception {
        StreamExecutionEnvironment first = StreamExecutionEnvironment.getExecutionEnvironment(configuration());
        first.setParallelism(2);
        // The edge is a shuffle when the checkpoint is taken, so it holds in-flight records; the restored job
        // makes it a forward edge (same edge, same ids), which cannot redistribute them.
        toSlowMap(first, false);
        assertThatThrownBy(() -> first.execute("forward, first part")).hasMessageContaining("injected failure");
        Path checkpoint = latestRetainedCheckpoint();
        assertThat(inFlightRecords(checkpoint, "slow")).as("in-flight records in %s", checkpoint).isPositive();

        FAIL.set(false);
        Configuration conf = configuration();
        conf.setString("execution.state-recovery.path", checkpoint.toString());
        StreamExecutionEnvironment second = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        second.setParallelism(3);
        toSlowMap(second, true);
        assertThatThrownBy(() -> second.execute("forward, second part"))
                .hasStackTraceContaining("FORWARD")
                .hasStackTraceContaining("in-flight records of an unaligned checkpoint")
                .hasStackTraceContaining("from 2 to 3")
                .hasStackTraceContaining("shuffle()");
    }

    private static void toSlowMap(StreamExecutionEnvironment env, boolean forward) {
        var numbers = env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, Types.LONG),
                WatermarkStrategy.noWatermarks(), "numbers").uid("numbers");
        (forward ? numbers.forward() : numbers.shuffle())
                .map(new SlowFailingMap())
                .uid("slow")
                .disableChaining()
                .addSink(new DiscardingSink<>());
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

    /** The in-flight records the checkpoint holds for operator {@code uid}, whose id is its uid. */
    private static long inFlightRecords(Path checkpoint, String uid) throws IOException {
        OperatorState state = Checkpoints.loadCheckpointMetadata(checkpoint.toString()).getOperatorStates().get(uid);
        assertThat(state).as("state of %s", uid).isNotNull();
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

    private static void maybeFail(long value) {
        if (FAIL.get() && PROCESSED.incrementAndGet() >= FAIL_AFTER && CHECKPOINT_COMPLETED.get()
                && FAILED.compareAndSet(false, true)) {
            throw new IllegalStateException("injected failure at record " + value);
        }
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
            if (!FAIL.get()) {
                PROCESSED.incrementAndGet();
            }
            maybeFail(value);
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

    /** Passes records on, slowly, behind a forward edge; throws once when told to. */
    static final class SlowFailingMap implements MapFunction<Long, Long>, CheckpointListener, CheckpointedFunction {
        @Override
        public Long map(Long value) {
            LockSupport.parkNanos(20_000);
            maybeFail(value);
            return value;
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
