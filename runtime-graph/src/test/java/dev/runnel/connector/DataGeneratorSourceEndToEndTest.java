package dev.runnel.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.DiscardingSink;
import dev.runnel.util.CloseableIterator;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The data generator on the embedded runtime: every index exactly once, pacing, cancellation. */
class DataGeneratorSourceEndToEndTest {

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void generatesEveryIndexExactlyOnceAtParallelismTwo() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataGeneratorSource<String> source = new DataGeneratorSource<>(i -> "event-" + i, 100_000, Types.STRING);
        BitSet seen = new BitSet(100_000);
        int count = 0;
        try (CloseableIterator<String> it = env.fromSource(source, WatermarkStrategy.noWatermarks(), "Generator")
                .executeAndCollect()) {
            while (it.hasNext()) {
                String record = it.next();
                int index = Integer.parseInt(record.substring("event-".length()));
                assertThat(seen.get(index)).as("duplicate %s", record).isFalse();
                seen.set(index);
                count++;
            }
        }
        assertThat(count).isEqualTo(100_000);
        assertThat(seen.cardinality()).isEqualTo(100_000);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aRateLimitedGeneratorIsPacedAndDeliversEverything() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        // 200 records at 1000/s over two readers: 100 each at 500/s, so at least ~0.2 s.
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, 200, RateLimiterStrategy.perSecond(1000),
                Types.LONG);
        List<Long> records = new ArrayList<>();
        long start = System.nanoTime();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "Paced").executeAndCollect().forEachRemaining(records::add);
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);

        assertThat(records).hasSize(200).doesNotHaveDuplicates().allSatisfy(i -> assertThat(i).isBetween(0L, 199L));
        assertThat(elapsedMillis).isGreaterThanOrEqualTo(150L).isLessThan(20_000L);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void anUnboundedGeneratorRunsUntilTheJobIsCancelled() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        // Indexes 0 .. Long.MAX_VALUE - 1, split in two halves; the second starts near 2^62.
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, Long.MAX_VALUE, Types.LONG);
        List<Long> first = env.fromSource(source, WatermarkStrategy.noWatermarks(), "Endless")
                .map(x -> x + 1).executeAndCollect(5_000);
        assertThat(first).hasSize(5_000).doesNotHaveDuplicates().allSatisfy(x -> assertThat(x).isPositive());
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aSlowRateLimitedGeneratorCanBeCancelledWhileWaitingForAPermit() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        // One record every two seconds: after the first, the reader is waiting for a permit.
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> i, 1_000, RateLimiterStrategy.perSecond(0.5),
                Types.LONG);
        long start = System.nanoTime();
        List<Long> first = env.fromSource(source, WatermarkStrategy.noWatermarks(), "Slow").executeAndCollect(1);
        assertThat(first).containsExactly(0L);
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isLessThan(10_000L);
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void aFailingGeneratorFunctionFailsTheJob() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataGeneratorSource<Long> source = new DataGeneratorSource<>(i -> {
            if (i == 777) {
                throw new java.io.IOException("cannot generate " + i);
            }
            return i;
        }, 10_000, Types.LONG);
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "Failing").addSink(new DiscardingSink<>());
        assertThatThrownBy(env::execute).hasMessageContaining("cannot generate 777");
    }
}
