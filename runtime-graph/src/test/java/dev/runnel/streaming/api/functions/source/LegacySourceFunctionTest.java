package dev.runnel.streaming.api.functions.source;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.RuntimeExecutionMode;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.core.execution.JobExecutionException;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.datastream.DataStreamSource;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.watermark.Watermark;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.util.CloseableIterator;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code env.addSource(SourceFunction)}: Flink's legacy source API on its own thread. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LegacySourceFunctionTest {

    private static <T> List<T> collect(DataStream<T> stream) throws Exception {
        List<T> result = new ArrayList<>();
        stream.executeAndCollect().forEachRemaining(result::add);
        return result;
    }

    // ------------------------------------------------------------------ parallel, rich lifecycle

    static final Queue<String> LIFECYCLE = new ConcurrentLinkedQueue<>();

    /** Subtask i emits i*100 .. i*100+4, from its own thread, under the checkpoint lock. */
    static final class CountingSource extends RichParallelSourceFunction<Long> {
        private volatile boolean running = true;
        private transient int subtask;

        @Override
        public void open(OpenContext openContext) {
            subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            LIFECYCLE.add("open " + subtask + " of " + getRuntimeContext().getTaskInfo().getNumberOfParallelSubtasks()
                    + " on " + threadKind());
        }

        @Override
        public void run(SourceContext<Long> ctx) {
            LIFECYCLE.add("run " + subtask + " on " + threadKind());
            for (long i = 0; i < 5 && running; i++) {
                synchronized (ctx.getCheckpointLock()) {
                    ctx.collect(subtask * 100L + i);
                }
            }
        }

        @Override
        public void cancel() {
            running = false;
            LIFECYCLE.add("cancel " + subtask);
        }

        @Override
        public void close() {
            LIFECYCLE.add("close " + subtask);
        }

        private static String threadKind() {
            return Thread.currentThread().getName().startsWith("Legacy Source Thread - ") ? "source thread" : "task thread";
        }
    }

    @Test
    void aRichParallelSourceRunsOnePerSubtaskWithItsLifecycle() throws Exception {
        LIFECYCLE.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStreamSource<Long> source = env.addSource(new CountingSource(), "counter");
        assertThat(source.getType()).isEqualTo(Types.LONG);
        assertThat(collect(source.map(x -> x + 1)))
                .containsExactlyInAnyOrder(1L, 2L, 3L, 4L, 5L, 101L, 102L, 103L, 104L, 105L);
        assertThat(LIFECYCLE).containsExactlyInAnyOrder(
                "open 0 of 2 on task thread", "run 0 on source thread", "close 0",
                "open 1 of 2 on task thread", "run 1 on source thread", "close 1");
    }

    // ------------------------------------------------------------------ event time

    /** Records with timestamps and a watermark at 10, after which the record at 3 is late. */
    static final class TimedSource implements SourceFunction<Tuple3<String, Long, Integer>> {
        @Override
        public void run(SourceContext<Tuple3<String, Long, Integer>> ctx) {
            for (long ts : new long[] {1, 5, 12}) {
                ctx.collectWithTimestamp(Tuple3.of("k", ts, 1), ts);
            }
            ctx.emitWatermark(new Watermark(10));
            ctx.collectWithTimestamp(Tuple3.of("k", 3L, 1), 3);
            ctx.collectWithTimestamp(Tuple3.of("k", 15L, 1), 15);
        }

        @Override
        public void cancel() {}
    }

    private static DataStream<Tuple3<String, Long, Integer>> countPerWindow(DataStream<Tuple3<String, Long, Integer>> in) {
        return in.keyBy(t -> t.f0)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .reduce((a, b) -> Tuple3.of(a.f0, Math.min(a.f1, b.f1), a.f2 + b.f2));
    }

    @Test
    void timestampsAndWatermarksFromTheContextDriveEventTimeWindows() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        var source = env.addSource(new TimedSource(), "timed", Types.TUPLE(Types.STRING, Types.LONG, Types.INT));
        assertThat(source.getParallelism()).isEqualTo(1);
        // [0,10) fires at watermark 10 with the records at 1 and 5; the 3 arrives late and is dropped.
        assertThat(collect(countPerWindow(source))).containsExactly(Tuple3.of("k", 1L, 2), Tuple3.of("k", 12L, 2));
    }

    /** Emits 1, 5, 12, 3, 15 without timestamps. */
    static final class UntimedSource implements SourceFunction<Tuple3<String, Long, Integer>> {
        @Override
        public void run(SourceContext<Tuple3<String, Long, Integer>> ctx) {
            for (long ts : new long[] {1, 5, 12, 3, 15}) {
                ctx.collect(Tuple3.of("k", ts, 1));
            }
        }

        @Override
        public void cancel() {}
    }

    @Test
    void assignTimestampsAndWatermarksAfterALegacySource() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        var stamped = env.addSource(new UntimedSource(), Types.TUPLE(Types.STRING, Types.LONG, Types.INT))
                .assignTimestampsAndWatermarks(WatermarkStrategy
                        .<Tuple3<String, Long, Integer>>forMonotonousTimestamps()
                        .withTimestampAssigner((event, ts) -> event.f1));
        // No periodic watermark before the end in so short a job: all records count, windows fire at the end.
        assertThat(collect(countPerWindow(stamped))).containsExactly(Tuple3.of("k", 1L, 3), Tuple3.of("k", 12L, 2));
    }

    // ------------------------------------------------------------------ cancellation and failure

    static final AtomicInteger CANCELS = new AtomicInteger();
    static volatile CountDownLatch runReturned;

    /** Counts forever until cancelled. */
    static final class EndlessSource implements SourceFunction<Long> {
        private volatile boolean running = true;

        @Override
        public void run(SourceContext<Long> ctx) {
            try {
                long i = 0;
                while (running) {
                    synchronized (ctx.getCheckpointLock()) {
                        ctx.collect(i++);
                    }
                }
            } finally {
                runReturned.countDown();
            }
        }

        @Override
        public void cancel() {
            CANCELS.incrementAndGet();
            running = false;
        }
    }

    @Test
    void cancellingTheJobCancelsAnEndlessSourceInBoundedTime() throws Exception {
        CANCELS.set(0);
        runReturned = new CountDownLatch(1);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<Long> first = new ArrayList<>();
        try (CloseableIterator<Long> it = env.addSource(new EndlessSource()).rebalance().map(x -> x).executeAndCollect()) {
            while (first.size() < 100 && it.hasNext()) {
                first.add(it.next());
            }
        }
        assertThat(runReturned.await(10, TimeUnit.SECONDS)).as("run() returned after cancellation").isTrue();
        assertThat(CANCELS.get()).isEqualTo(1);
        assertThat(first).hasSize(100);
    }

    /** Ignores cancel(), but sleeps between records: only the interrupt stops it. */
    static final class SleepySource implements SourceFunction<Long> {
        @Override
        public void run(SourceContext<Long> ctx) throws InterruptedException {
            try {
                for (long i = 0; ; i++) {
                    ctx.collect(i);
                    Thread.sleep(5);
                }
            } finally {
                runReturned.countDown();
            }
        }

        @Override
        public void cancel() {}
    }

    @Test
    void theSourceThreadIsInterruptedOnCancellation() throws Exception {
        runReturned = new CountDownLatch(1);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        assertThat(env.addSource(new SleepySource()).executeAndCollect(3)).containsExactly(0L, 1L, 2L);
        assertThat(runReturned.await(10, TimeUnit.SECONDS)).as("run() returned after the interrupt").isTrue();
    }

    static final class FailingSource implements SourceFunction<String> {
        @Override
        public void run(SourceContext<String> ctx) {
            ctx.collect("one");
            throw new IllegalStateException("the feed broke");
        }

        @Override
        public void cancel() {}
    }

    @Test
    void aFailureInRunFailsTheJobWithItsCause() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.addSource(new FailingSource(), "feed").print();
        assertThatThrownBy(env::execute)
                .isInstanceOf(JobExecutionException.class)
                .hasStackTraceContaining("The source function of 'feed' failed in run(): "
                        + "java.lang.IllegalStateException: the feed broke");
    }

    // ------------------------------------------------------------------ parallelism and modes

    @Test
    void aNonParallelSourceKeepsParallelismOneAndRefusesMore() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(4);
        DataStreamSource<Long> source = env.addSource(new EndlessSource(), "single");
        assertThat(source.getParallelism()).isEqualTo(1);
        assertThat(source.isParallel()).isFalse();
        assertThatThrownBy(() -> source.setParallelism(2))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Source 'single' is a non-parallel SourceFunction, so its parallelism must be 1, not 2. "
                        + "Implement ParallelSourceFunction (or extend RichParallelSourceFunction) to run it in parallel.");
        assertThat(env.addSource(new CountingSource()).setParallelism(3).getParallelism()).isEqualTo(3);
    }

    @Test
    void aLegacySourceIsUnboundedForTheRuntimeMode() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.setRuntimeMode(RuntimeExecutionMode.AUTOMATIC);
        env.addSource(new CountingSource()).print();
        assertThat(env.getStreamGraph(false).getRuntimeExecutionMode()).isEqualTo(RuntimeExecutionMode.STREAMING);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        assertThatThrownBy(env::getStreamGraph)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("Source 'Custom Source' is unbounded");
    }
}
