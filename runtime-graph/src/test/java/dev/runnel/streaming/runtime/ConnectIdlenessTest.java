package dev.runnel.streaming.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.co.KeyedCoProcessFunction;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * An idle input of {@code connect()} must not hold back event time for ever: once the second input is
 * idle, the first alone drives the operator's watermark (as in Flink), while the job is still running.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ConnectIdlenessTest {

    /** For each record of input 1, an event-time timer at its timestamp; input 2 is only there to go idle. */
    static final class TimerPerRecord extends KeyedCoProcessFunction<Long, Long, Long, String> {
        @Override
        public void processElement1(Long value, Context ctx, Collector<String> out) {
            ctx.timerService().registerEventTimeTimer(ctx.timestamp());
        }

        @Override
        public void processElement2(Long value, Context ctx, Collector<String> out) {}

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> out) {
            out.collect("timer@" + timestamp);
        }
    }

    @Test
    void timersFireAsTheActiveInputAdvancesWhileTheOtherIsIdle() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        // Input 1: never ends; its event time runs from 10 000 ms, ten ms per record, 500 records a second.
        var active = env.fromSource(
                new DataGeneratorSource<>(i -> i, Long.MAX_VALUE, RateLimiterStrategy.perSecond(500), Types.LONG),
                WatermarkStrategy.<Long>forBoundedOutOfOrderness(Duration.ZERO)
                        .withTimestampAssigner((value, ts) -> 10_000 + value * 10),
                "active");
        // Input 2: timestamps 0..4999, then nothing (and no end): without idleness its watermark stays at 4998.
        var quiet = env.fromSource(new TimeAndFlushTest.HalfIdleSource(),
                WatermarkStrategy.<Long>forBoundedOutOfOrderness(Duration.ZERO).withIdleness(Duration.ofMillis(300)),
                "goes idle");
        List<String> fired = active.connect(quiet)
                .keyBy(x -> x % 4, x -> x % 4)
                .process(new TimerPerRecord(), Types.STRING)
                .executeAndCollect(20);
        // Every timer is at 10 000 ms or later, far beyond what the idle input ever reached.
        assertThat(fired).hasSize(20).allSatisfy(s -> assertThat(Long.parseLong(s.substring(6))).isGreaterThanOrEqualTo(10_000));
        assertThat(fired).contains("timer@10000", "timer@10010");
    }
}
