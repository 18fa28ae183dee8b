package dev.runnel.runtime.minicluster;

import static dev.runnel.runtime.minicluster.CheckpointTestProbes.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.state.CheckpointListener;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.runtime.checkpoint.Checkpoints;
import dev.runnel.runtime.checkpoint.OperatorState;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.state.FunctionInitializationContext;
import dev.runnel.runtime.state.FunctionSnapshotContext;
import dev.runnel.runtime.state.InputChannelStateHandle;
import dev.runnel.streaming.api.checkpoint.CheckpointedFunction;
import dev.runnel.streaming.api.datastream.BroadcastStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * An unaligned checkpoint of a task with a keyed and a broadcast input, restored at another parallelism. The
 * keyed input is an unthrottled source into a deliberately slow counter (its channels are full at every
 * barrier); the broadcast input is an unthrottled stream of ticks from one subtask, which every subtask counts in
 * broadcast state (so its channel is full too, but it is one channel against several keyed ones, and drains
 * first). As in Flink the
 * broadcast edge does not support unaligned checkpoints, so its barriers travel aligned and the counter aligns
 * those channels while the keyed ones stay unaligned: the retained checkpoint holds in-flight records of the
 * keyed edge only, the restore at another parallelism is not refused, and both every key's count and every
 * subtask's tick count come out exact.
 */
@Timeout(180)
class UnalignedBroadcastEdgeRescaleTest {

    private static final int RECORDS = 100_000;
    private static final int KEYS = 50;
    /** More than the counter can take while the job runs: the tick source outlasts the keyed one. */
    private static final int TICKS = 60_000;
    /** The counter throws at its first record after a completed mid-stream checkpoint and this many records. */
    private static final long FAIL_AFTER = 15_000;
    /**
     * Only a checkpoint the counter snapshots after this many records lets it fail: by then the keyed channels are
     * full (an earlier one may find them still filling, their barriers ahead of the broadcast one's, and no
     * in-flight records to persist).
     */
    private static final long MID_STREAM = 5_000;

    static final MapStateDescriptor<String, Long> TICK_COUNT =
            new MapStateDescriptor<>("ticks", Types.STRING, Types.LONG);

    /** The most ticks each subtask of the counter has counted. */
    static final Map<Integer, Long> TICKS_SEEN = new ConcurrentHashMap<>();
    static final AtomicLong PROCESSED = new AtomicLong();
    static final AtomicBoolean FAIL = new AtomicBoolean();
    static final AtomicBoolean FAILED = new AtomicBoolean();

    @TempDir
    Path checkpointDir;

    @BeforeEach
    void reset() {
        CheckpointTestProbes.reset();
        TICKS_SEEN.clear();
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
        // several, so that the test can restore one that caught records in flight (see retainedCheckpointWithKeyedChannelState)
        conf.setString("execution.checkpointing.num-retained", "20");
        conf.setString("restart-strategy.type", "none");
        smallChannels(conf);
        return conf;
    }

    private static void job(StreamExecutionEnvironment env) {
        BroadcastStream<Long> ticks = env.fromSource(new DataGeneratorSource<>(i -> i, TICKS, Types.LONG),
                        WatermarkStrategy.noWatermarks(), "ticks")
                .uid("ticks")
                .setParallelism(1)
                .broadcast(TICK_COUNT);
        env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, Types.LONG), WatermarkStrategy.noWatermarks(),
                        "numbers")
                .uid("numbers")
                .keyBy(v -> v % KEYS)
                .connect(ticks)
                .process(new SlowFailingCounter())
                .uid("counter")
                .addSink(new MaxCountSink());
    }

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource({"2, 3", "3, 2"})
    void exactResultsAndChannelStateOnlyOnTheKeyedEdge(int oldParallelism, int newParallelism) throws Exception {
        StreamExecutionEnvironment first = StreamExecutionEnvironment.getExecutionEnvironment(configuration());
        first.setParallelism(oldParallelism);
        job(first);
        assertThatThrownBy(() -> first.execute("keyed and broadcast, first part"))
                .hasMessageContaining("injected failure");
        Path checkpoint = retainedCheckpointWithKeyedChannelState();
        List<InputChannelStateHandle> channels = channelState(checkpoint, "counter");
        assertThat(channels).as("in-flight records of the keyed edge (input 1) in %s", checkpoint)
                .anySatisfy(handle -> assertThat(handle.gateIndex()).isZero());
        assertThat(channels.stream().filter(h -> h.gateIndex() == 0).mapToLong(InputChannelStateHandle::records).sum())
                .isPositive();
        assertThat(channels).as("the broadcast edge (input 2) never has channel state")
                .allSatisfy(handle -> assertThat(handle.gateIndex()).isZero());

        FAIL.set(false);
        PROCESSED.set(0);
        TICKS_SEEN.clear();
        Configuration conf = configuration();
        conf.setString("execution.state-recovery.path", checkpoint.toString());
        StreamExecutionEnvironment second = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        second.setParallelism(newParallelism);
        job(second);
        EmbeddedJob job = (EmbeddedJob) second.executeAsync("keyed and broadcast, second part");
        job.getJobExecutionResult().get(150, TimeUnit.SECONDS);

        assertThat(PROCESSED.get()).as("the second job resumed, it did not start over").isLessThan(RECORDS);
        assertThat(MAX_COUNT).hasSize(KEYS);
        assertThat(MAX_COUNT.values()).as("no keyed record lost or counted twice")
                .allSatisfy(count -> assertThat(count).isEqualTo((long) RECORDS / KEYS));
        assertThat(TICKS_SEEN).as("every subtask of the second job counted ticks").hasSize(newParallelism);
        assertThat(TICKS_SEEN.values()).as("no tick lost or counted twice by any subtask")
                .allSatisfy(ticksSeen -> assertThat(ticksSeen).isEqualTo(TICKS));
    }

    /**
     * The latest retained checkpoint whose counter state holds in-flight records of the keyed edge. Usually the
     * latest of all; on a loaded machine a checkpoint may find the keyed channels drained (the sources were
     * descheduled), so the test does not depend on the last one being full. None of them may hold records of the
     * broadcast edge.
     */
    private Path retainedCheckpointWithKeyedChannelState() throws IOException {
        List<Path> retained;
        try (Stream<Path> files = Files.walk(checkpointDir)) {
            retained = files.filter(f -> f.getFileName().toString().equals("_metadata"))
                    .map(Path::getParent)
                    .filter(dir -> dir.getFileName().toString().startsWith("chk-"))
                    .sorted(Comparator.comparingLong((Path dir) -> Long.parseLong(dir.getFileName().toString()
                            .substring(4))).reversed())
                    .toList();
        }
        assertThat(retained).as("checkpoints retained under %s", checkpointDir).isNotEmpty();
        for (Path checkpoint : retained) {
            assertThat(channelState(checkpoint, "counter")).as("the broadcast edge (input 2) in %s", checkpoint)
                    .allSatisfy(handle -> assertThat(handle.gateIndex()).isZero());
        }
        for (Path checkpoint : retained) {
            if (channelState(checkpoint, "counter").stream().anyMatch(h -> h.gateIndex() == 0 && h.records() > 0)) {
                return checkpoint;
            }
        }
        throw new AssertionError("none of the retained checkpoints " + retained
                + " holds in-flight records of the keyed edge");
    }

    private static List<InputChannelStateHandle> channelState(Path checkpoint, String uid) throws IOException {
        OperatorState state = Checkpoints.loadCheckpointMetadata(checkpoint.toString()).getOperatorStates().get(uid);
        assertThat(state).as("state of %s", uid).isNotNull();
        List<InputChannelStateHandle> handles = new ArrayList<>();
        for (OperatorSubtaskState subtask : state.getSubtaskStates().values()) {
            handles.addAll(subtask.inputChannelState());
        }
        return handles;
    }

    /** Counts per key in keyed state, slowly; counts ticks in broadcast state, fast; throws once when told to. */
    static final class SlowFailingCounter extends KeyedBroadcastProcessFunction<Long, Long, Long, Tuple2<Long, Long>>
            implements CheckpointListener, CheckpointedFunction {
        private transient ValueState<Long> count;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, ReadOnlyContext ctx, Collector<Tuple2<Long, Long>> out)
                throws Exception {
            LockSupport.parkNanos(20_000);
            if (!FAIL.get()) {
                PROCESSED.incrementAndGet();
            }
            if (FAIL.get() && PROCESSED.incrementAndGet() >= FAIL_AFTER && CHECKPOINT_COMPLETED.get()
                    && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure at record " + value);
            }
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(Tuple2.of(ctx.getCurrentKey(), next));
        }

        @Override
        public void processBroadcastElement(Long tick, Context ctx, Collector<Tuple2<Long, Long>> out)
                throws Exception {
            Long ticks = ctx.getBroadcastState(TICK_COUNT).get("ticks");
            long next = (ticks == null ? 0 : ticks) + 1;
            ctx.getBroadcastState(TICK_COUNT).put("ticks", next);
            TICKS_SEEN.merge(getRuntimeContext().getIndexOfThisSubtask(), next, Math::max);
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
