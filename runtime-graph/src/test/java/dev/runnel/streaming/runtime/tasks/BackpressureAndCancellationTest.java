package dev.runnel.streaming.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.TaskManagerOptions;
import dev.runnel.core.execution.JobClient;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.streaming.api.functions.sink.DiscardingSink;
import dev.runnel.util.Collector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Backpressure is a status the mailbox sees, not a park that hides the mailbox; and cancellation stops a
 * task between records, re-interrupts it, and gives up on a thread that ignores interrupts.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BackpressureAndCancellationTest {

    // Statics: functions are serialized into the job, so they reach the test through class fields.
    static volatile CountDownLatch sinkBlocked;
    static volatile CountDownLatch timerFired;
    static final AtomicLong processed = new AtomicLong();
    static final AtomicLong processedWhenTimerFired = new AtomicLong();

    /** Registers one processing-time timer at the first record and passes every record on. */
    static final class TimerOnFirstRecord extends KeyedProcessFunction<Long, Long, Long> {
        private transient ValueState<Boolean> registered;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            registered = getRuntimeContext().getState(new ValueStateDescriptor<>("registered", Types.BOOLEAN));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Long> out) throws Exception {
            processed.incrementAndGet();
            if (registered.value() == null) {
                registered.update(true);
                ctx.timerService().registerProcessingTimeTimer(ctx.timerService().currentProcessingTime() + 300);
            }
            out.collect(value);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Long> out) {
            processedWhenTimerFired.set(processed.get());
            timerFired.countDown();
        }
    }

    /** Takes one record, then waits (interruptibly) for ever: everything upstream backs up. */
    static final class BlockingSink implements SinkFunction<Long> {
        @Override
        public void invoke(Long value, Context context) throws InterruptedException {
            sinkBlocked.countDown();
            new CountDownLatch(1).await();
        }
    }

    @Test
    void aTimerFiresAndCancelCompletesWhileTheOutputIsFull() throws Exception {
        sinkBlocked = new CountDownLatch(1);
        timerFired = new CountDownLatch(1);
        processed.set(0);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromSequence(0, Long.MAX_VALUE)
                .keyBy(x -> 0L, Types.LONG)
                .process(new TimerOnFirstRecord(), Types.LONG)
                .rebalance()
                .addSink(new BlockingSink());
        JobClient client = env.executeAsync("backpressured");
        try {
            assertThat(sinkBlocked.await(20, TimeUnit.SECONDS)).as("the sink took its one record").isTrue();
            assertThat(timerFired.await(20, TimeUnit.SECONDS))
                    .as("the timer of the backpressured task fired").isTrue();
            // Backpressure held the keyed task to what the channels take (16 batches of 512 records and change).
            assertThat(processedWhenTimerFired.get()).isLessThan(100_000);
        } finally {
            long start = System.nanoTime();
            client.cancel().get(20, TimeUnit.SECONDS);
            assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000);
        }
        assertThat(client.getJobStatus().get().name()).isEqualTo("CANCELED");
    }

    static final AtomicLong slowProcessed = new AtomicLong();
    static volatile CountDownLatch slowStarted;

    /** Busy-waits 100 ms per record without ever looking at interrupts. */
    static final class BusyHundredMillis implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            slowStarted.countDown();
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
            while (System.nanoTime() < until) {
                Thread.onSpinWait();
            }
            slowProcessed.incrementAndGet();
            return value;
        }
    }

    @Test
    void aCancelledTaskStopsAfterTheRecordItIsOn() throws Exception {
        slowProcessed.set(0);
        slowStarted = new CountDownLatch(3);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromSequence(0, 100_000).rebalance().map(new BusyHundredMillis(), Types.LONG)
                .addSink(new DiscardingSink<>());
        JobClient client = env.executeAsync("slow map");
        assertThat(slowStarted.await(20, TimeUnit.SECONDS)).isTrue();
        long atCancel = slowProcessed.get();
        long start = System.nanoTime();
        client.cancel().get(20, TimeUnit.SECONDS);
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(millis).as("one record of 100 ms, not a batch of 512").isLessThan(2_000);
        assertThat(slowProcessed.get() - atCancel).as("records finished after cancel()").isLessThanOrEqualTo(1);
    }

    static volatile boolean releaseSpinner;
    static volatile CountDownLatch spinning;

    /** Spins until the test releases it, whatever interrupts it gets. */
    static final class Spinner implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            spinning.countDown();
            while (!releaseSpinner) {
                Thread.onSpinWait();
                Thread.interrupted(); // swallow interrupts, as careless user code does
            }
            return value;
        }
    }

    @Test
    void aThreadThatIgnoresInterruptsIsGivenUpOnWithWhereItIsStuck() throws Exception {
        releaseSpinner = false;
        spinning = new CountDownLatch(1);
        Configuration conf = new Configuration()
                .set(TaskManagerOptions.TASK_CANCELLATION_INTERVAL, 50L)
                .set(TaskManagerOptions.TASK_CANCELLATION_TIMEOUT, 500L);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
        env.fromSequence(0, 10).map(new Spinner(), Types.LONG).name("spinner").addSink(new DiscardingSink<>());
        JobClient client = env.executeAsync("stuck");
        try {
            assertThat(spinning.await(20, TimeUnit.SECONDS)).isTrue();
            long start = System.nanoTime();
            client.cancel().get(20, TimeUnit.SECONDS);
            long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            assertThat(millis).as("the timeout, not for ever").isBetween(400L, 10_000L);

            ExecutionException failure = org.assertj.core.api.Assertions.catchThrowableOfType(
                    () -> client.getJobExecutionResult().get(), ExecutionException.class);
            TaskCancellationTimeoutException stuck = find(failure, TaskCancellationTimeoutException.class);
            assertThat(stuck).as("the job's failure carries the timeout of the stuck task").isNotNull();
            assertThat(stuck.getMessage())
                    .contains("did not stop within 500 ms", "task.cancellation.timeout", "operator 'spinner'",
                            Spinner.class.getName() + ".map");
            assertThat(stuck.getStackTrace()).as("the exception's own trace is the stuck thread's")
                    .anyMatch(frame -> frame.getClassName().equals(Spinner.class.getName())
                            && frame.getMethodName().equals("map"));
            assertThat(client.getJobStatus().get().name()).isEqualTo("CANCELED");
        } finally {
            releaseSpinner = true;
        }
    }

    private static <T extends Throwable> T find(Throwable root, Class<T> type) {
        List<Throwable> todo = new ArrayList<>(List.of(root));
        while (!todo.isEmpty()) {
            Throwable t = todo.remove(0);
            if (type.isInstance(t)) {
                return type.cast(t);
            }
            if (t.getCause() != null) {
                todo.add(t.getCause());
            }
            todo.addAll(List.of(t.getSuppressed()));
        }
        return null;
    }
}
