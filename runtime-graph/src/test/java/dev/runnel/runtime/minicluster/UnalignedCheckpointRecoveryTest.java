package dev.runnel.runtime.minicluster;

import static dev.runnel.runtime.minicluster.CheckpointTestProbes.*;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.metrics.Counter;
import dev.runnel.metrics.Metric;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.runtime.tasks.StreamTask;
import dev.runnel.util.Collector;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Unaligned checkpoints under heavy backpressure: an unthrottled source feeds a deliberately slow keyed
 * counter, so every channel into the counter is full whenever a barrier comes; the counter fails once, in
 * the middle; the job restores from the newest unaligned checkpoint, replays the in-flight records it
 * persisted and goes on. Every key's final count is exact, and the restored channel state really held
 * records (the case under test is not vacuous). The build runs it on one TaskManager (in-memory channels)
 * and on two (Netty).
 */
@Timeout(180)
class UnalignedCheckpointRecoveryTest {

    private static final int RECORDS = 40_000;
    private static final int KEYS = 50;
    /**
     * The counter throws once, at the first record it processes after a checkpoint completed and after it has
     * counted this many records, so the restore is from an unaligned checkpoint, not from scratch.
     */
    private static final long FAIL_AFTER = 12_000;

    static final AtomicLong PROCESSED = new AtomicLong();
    static final AtomicBoolean FAILED = new AtomicBoolean();

    @TempDir
    Path checkpointDir;

    @org.junit.jupiter.api.RepeatedTest(2)
    void exactCountsAfterAFailureWithRestoredInFlightRecords() throws Exception {
        CheckpointTestProbes.reset();
        PROCESSED.set(0);
        FAILED.set(false);
        Configuration conf = new Configuration();
        conf.setString("state.checkpoints.dir", checkpointDir.toUri().toString());
        conf.setString("execution.checkpointing.interval", "100 ms");
        conf.setString("execution.checkpointing.unaligned.enabled", "true");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "3");
        conf.setString("restart-strategy.fixed-delay.delay", "20 ms");
        smallChannels(conf);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        assertThat(env.getCheckpointConfig().isUnalignedCheckpointsEnabled()).isTrue();

        env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, Types.LONG), WatermarkStrategy.noWatermarks(),
                        "numbers")
                .keyBy(v -> v % KEYS)
                .process(new SlowFailingCounter())
                .addSink(new MaxCountSink());
        EmbeddedJob job = (EmbeddedJob) env.executeAsync("unaligned checkpoints under backpressure");
        job.getJobExecutionResult().get(150, TimeUnit.SECONDS);

        assertThat(FAILED).as("the failure was injected").isTrue();
        assertThat(MAX_COUNT).hasSize(KEYS);
        long perKey = RECORDS / KEYS;
        assertThat(MAX_COUNT.values()).as("no record lost or counted twice")
                .allSatisfy(count -> assertThat(count).isEqualTo(perKey));
        assertThat(sum(job, StreamTask.PERSISTED_IN_FLIGHT_RECORDS)).as("in-flight records persisted")
                .isPositive();
        assertThat(sum(job, StreamTask.RESTORED_IN_FLIGHT_RECORDS)).as("in-flight records restored and replayed")
                .isPositive();
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

    /** Counts per key in keyed state, slowly (so the channels into it stay full); throws once, mid-way. */
    static final class SlowFailingCounter extends KeyedProcessFunction<Long, Long, Tuple2<Long, Long>>
            implements dev.runnel.api.common.state.CheckpointListener {
        private transient ValueState<Long> count;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out) throws Exception {
            LockSupport.parkNanos(20_000);
            if (PROCESSED.incrementAndGet() >= FAIL_AFTER && CHECKPOINT_COMPLETED.get()
                    && FAILED.compareAndSet(false, true)) {
                throw new IllegalStateException("injected failure at record " + value);
            }
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(Tuple2.of(ctx.getCurrentKey(), next));
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            CHECKPOINT_COMPLETED.set(true);
        }
    }

}
