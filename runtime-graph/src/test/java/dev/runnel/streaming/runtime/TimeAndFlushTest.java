package dev.runnel.streaming.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.api.java.typeutils.ResultTypeQueryable;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.core.execution.JobExecutionException;
import dev.runnel.core.io.InputStatus;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.util.CloseableIterator;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Idleness, buffer flushing and keys on the embedded runtime. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimeAndFlushTest {

    /**
     * Reader 0 emits timestamps 0..4999 and then waits forever; reader 1 never emits. Neither ends.
     */
    static final class HalfIdleSource implements Source<Long, HalfIdleSource.Split, Integer>, ResultTypeQueryable<Long> {
        record Split(int id) implements SourceSplit {
            @Override
            public String splitId() {
                return Integer.toString(id);
            }
        }

        @Override
        public TypeInformation<Long> getProducedType() {
            return Types.LONG;
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.CONTINUOUS_UNBOUNDED;
        }

        @Override
        public SourceReader<Long, Split> createReader(SourceReaderContext context) {
            int subtask = context.getIndexOfSubtask();
            return new SourceReader<>() {
                private long next;
                private final CompletableFuture<Void> never = new CompletableFuture<>();

                @Override
                public void start() {}

                @Override
                public InputStatus pollNext(ReaderOutput<Long> output) {
                    if (subtask == 0 && next < 5000) {
                        output.collect(next, next);
                        next++;
                        return InputStatus.MORE_AVAILABLE;
                    }
                    return InputStatus.NOTHING_AVAILABLE;
                }

                @Override
                public CompletableFuture<Void> isAvailable() {
                    return never;
                }

                @Override
                public void addSplits(List<Split> splits) {}

                @Override
                public void notifyNoMoreSplits() {}

                @Override
                public List<Split> snapshotState(long checkpointId) {
                    return List.of();
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public SplitEnumerator<Split, Integer> createEnumerator(SplitEnumeratorContext<Split> context) {
            return new SplitEnumerator<>() {
                @Override
                public void start() {}

                @Override
                public void handleSplitRequest(int subtaskId, String requesterHostname) {}

                @Override
                public void addSplitsBack(List<Split> splits, int subtaskId) {}

                @Override
                public void addReader(int subtaskId) {}

                @Override
                public Integer snapshotState(long checkpointId) {
                    return 0;
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public SplitEnumerator<Split, Integer> restoreEnumerator(SplitEnumeratorContext<Split> context, Integer checkpoint) {
            return createEnumerator(context);
        }

        @Override
        public SimpleVersionedSerializer<Split> getSplitSerializer() {
            return null;
        }

        @Override
        public SimpleVersionedSerializer<Integer> getEnumeratorCheckpointSerializer() {
            return null;
        }
    }

    static final class Count implements AggregateFunction<Long, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(Long value, Long acc) {
            return acc + 1;
        }

        @Override
        public Long getResult(Long acc) {
            return acc;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    @Test
    void anIdleSplitDoesNotHoldBackEventTime() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        var counts = env.fromSource(new HalfIdleSource(),
                        WatermarkStrategy.<Long>forBoundedOutOfOrderness(Duration.ZERO).withIdleness(Duration.ofMillis(300)),
                        "half-idle")
                .keyBy(x -> 0, Types.INT)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(1000)))
                .aggregate(new Count());
        List<Long> windows = new ArrayList<>();
        try (CloseableIterator<Long> it = counts.executeAndCollect()) {
            while (windows.size() < 4 && it.hasNext()) {
                windows.add(it.next());
            }
        }
        // Windows [0,1000) .. [3000,4000) are complete once reader 1 counts as idle.
        assertThat(windows).containsExactly(1000L, 1000L, 1000L, 1000L);
    }

    @Test
    void theBufferTimeoutFlushesPartialBatches() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setBufferTimeout(20);
        var slow = env.fromSource(new DataGeneratorSource<>(i -> i, Long.MAX_VALUE, RateLimiterStrategy.perSecond(20),
                Types.LONG), WatermarkStrategy.noWatermarks(), "slow").rebalance().map(x -> x);
        long start = System.nanoTime();
        List<Long> firstFive = slow.executeAndCollect(5);
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertThat(firstFive).hasSize(5);
        // 512-record batches at 20 records/s would take 25 s to fill; the timeout sends them within ~20 ms.
        assertThat(millis).isLessThan(10_000);
    }

    static final class Echo extends KeyedProcessFunction<String, String, String> {
        @Override
        public void processElement(String value, Context ctx, Collector<String> out) {
            out.collect(value);
        }
    }

    @Test
    void aNullKeyFailsTheJobNamingTheEdgeAndTheRecord() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromElements("fine", "bad").keyBy(s -> s.equals("bad") ? null : s, Types.STRING)
                .process(new Echo()).name("echo").print();
        assertThatThrownBy(() -> env.execute("null-key"))
                .isInstanceOf(JobExecutionException.class)
                .hasMessageContaining("returned null")
                .hasMessageContaining("'Collection Source' -> 'echo'")
                .hasMessageContaining("'bad'");
    }
}
