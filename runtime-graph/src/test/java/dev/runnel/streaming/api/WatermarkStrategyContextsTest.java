package dev.runnel.streaming.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.TimestampAssigner;
import dev.runnel.api.common.eventtime.TimestampAssignerSupplier;
import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.eventtime.WatermarkGenerator;
import dev.runnel.api.common.eventtime.WatermarkGeneratorSupplier;
import dev.runnel.api.common.eventtime.WatermarkOutput;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** A strategy written against Flink's two-method WatermarkStrategy interface works end to end. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class WatermarkStrategyContextsTest {

    static final Queue<String> SEEN = new ConcurrentLinkedQueue<>();

    /** Timestamps from field 1, a watermark after each event; notes what the contexts offered. */
    static final class FlinkStyleStrategy implements WatermarkStrategy<Tuple2<String, Long>> {
        @Override
        public TimestampAssigner<Tuple2<String, Long>> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
            SEEN.add("assigner, metrics " + (context.getMetricGroup() != null));
            return (event, recordTimestamp) -> event.f1;
        }

        @Override
        public WatermarkGenerator<Tuple2<String, Long>> createWatermarkGenerator(
                WatermarkGeneratorSupplier.Context context) {
            long before = context.getInputActivityClock().relativeTimeMillis();
            SEEN.add("generator, metrics " + (context.getMetricGroup() != null) + ", clock runs "
                    + (context.getInputActivityClock().relativeTimeMillis() >= before));
            return new WatermarkGenerator<>() {
                @Override
                public void onEvent(Tuple2<String, Long> event, long eventTimestamp, WatermarkOutput output) {
                    output.emitWatermark(new Watermark(eventTimestamp));
                }

                @Override
                public void onPeriodicEmit(WatermarkOutput output) {}
            };
        }
    }

    @Test
    void aFlinkStyleStrategyDrivesEventTime() throws Exception {
        SEEN.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        var sums = env.fromData(Types.TUPLE(Types.STRING, Types.LONG),
                        Tuple2.of("a", 1L), Tuple2.of("a", 4L), Tuple2.of("a", 12L), Tuple2.of("a", 2L))
                .assignTimestampsAndWatermarks(new FlinkStyleStrategy())
                .keyBy(t -> t.f0)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .reduce((x, y) -> Tuple2.of(x.f0, x.f1 + y.f1));
        List<Tuple2<String, Long>> result = new ArrayList<>();
        sums.executeAndCollect().forEachRemaining(result::add);
        // The watermark at 12 closes [0,10) with 1 + 4; the 2 after it is late.
        assertThat(result).containsExactly(Tuple2.of("a", 5L), Tuple2.of("a", 12L));
        assertThat(SEEN).containsExactlyInAnyOrder("assigner, metrics true", "generator, metrics true, clock runs true");
    }

    @Test
    void withTimestampAssignerTakesASupplier() {
        WatermarkStrategy<Tuple2<String, Long>> strategy = WatermarkStrategy.<Tuple2<String, Long>>noWatermarks()
                .withTimestampAssigner(TimestampAssignerSupplier.of((event, ts) -> event.f1));
        TimestampAssigner<Tuple2<String, Long>> assigner = strategy.createTimestampAssigner(() -> null);
        assertThat(assigner.extractTimestamp(Tuple2.of("x", 42L), 7L)).isEqualTo(42L);
    }
}
