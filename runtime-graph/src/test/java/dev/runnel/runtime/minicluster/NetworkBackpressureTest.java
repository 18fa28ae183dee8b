package dev.runnel.runtime.minicluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.configuration.Configuration;
import dev.runnel.core.execution.JobClient;
import dev.runnel.metrics.Gauge;
import dev.runnel.metrics.Metric;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.DiscardingSink;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A slow consumer on the other TaskManager backpressures only its own producers: their
 * backPressuredTimeMsPerSecond rises toward 1000 while an unrelated pipeline over the same connection
 * keeps flowing to its end.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class NetworkBackpressureTest {

    static final AtomicLong fastCount = new AtomicLong();

    static final class Slow implements MapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws InterruptedException {
            Thread.sleep(1);
            return value;
        }
    }

    static final class CountingSink implements SinkFunction<Long> {
        @Override
        public void invoke(Long value) {
            fastCount.incrementAndGet();
        }
    }

    @Test
    void aSlowConsumerBackpressuresItsProducersOnlyAndTheMetricShowsIt() throws Exception {
        fastCount.set(0);
        Configuration conf = new Configuration().setString("taskmanager.count", "2");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, conf);
        env.fromSequence(0, Long.MAX_VALUE).name("slow-input")
                .rebalance().map(new Slow(), Types.LONG).name("slow")
                .addSink(new DiscardingSink<>());
        env.fromSequence(0, 1_999_999).name("fast-input")
                .rebalance().map(x -> x, Types.LONG).name("fast")
                .addSink(new CountingSink());
        EmbeddedJob job = (EmbeddedJob) env.executeAsync("backpressure");
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (fastCount.get() < 2_000_000) {
                assertThat(System.nanoTime()).as("the unrelated pipeline flows while the other is backpressured")
                        .isLessThan(deadline);
                Thread.sleep(20);
            }
            long slowInput = 0;
            while (slowInput < 900) {
                assertThat(System.nanoTime()).as("backpressure of the slow pipeline's producers is measured")
                        .isLessThan(deadline);
                Thread.sleep(200);
                slowInput = gauge(job, "slow-input.0.backPressuredTimeMsPerSecond");
            }
        } finally {
            job.cancel().get(30, TimeUnit.SECONDS);
        }
    }

    @SuppressWarnings("unchecked")
    private static long gauge(EmbeddedJob job, String suffix) {
        for (Map.Entry<String, Metric> metric : job.metrics().getAllMetrics().entrySet()) {
            if (metric.getKey().endsWith(suffix)) {
                return ((Gauge<Long>) metric.getValue()).getValue();
            }
        }
        throw new AssertionError("no metric ending in " + suffix + " among " + job.metrics().getAllMetrics().keySet());
    }
}
