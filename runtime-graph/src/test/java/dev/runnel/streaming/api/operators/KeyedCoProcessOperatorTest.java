package dev.runnel.streaming.api.operators;

import dev.runnel.streaming.api.operators.co.KeyedCoProcessOperator;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.datastream.SingleOutputStreamOperator;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.ProcessFunction;
import dev.runnel.streaming.api.functions.co.KeyedCoProcessFunction;
import dev.runnel.util.CloseableIterator;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A KeyedCoProcessFunction on the embedded runtime: both inputs and its timers see the right key and
 * timestamp, and what they emit, on the main and a side output, carries the timestamp Flink gives it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class KeyedCoProcessOperatorTest {

    private static final OutputTag<String> SIDE = new OutputTag<>("side", Types.STRING);

    /** Orders register an event-time timer 5 ms after themselves; payments go to the side output too. */
    static final class OrdersAndPayments
            extends KeyedCoProcessFunction<String, Tuple2<String, Long>, Tuple2<String, Long>, String> {

        @Override
        public void processElement1(Tuple2<String, Long> order, Context ctx, Collector<String> out) {
            ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 5);
            out.collect("order " + ctx.getCurrentKey() + "@" + ctx.timestamp());
        }

        @Override
        public void processElement2(Tuple2<String, Long> payment, Context ctx, Collector<String> out) {
            ctx.output(SIDE, "payment " + ctx.getCurrentKey());
            out.collect("payment " + ctx.getCurrentKey() + "@" + ctx.timestamp());
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> out) {
            ctx.output(SIDE, "timer " + ctx.getCurrentKey());
            out.collect("timer " + ctx.getCurrentKey() + " " + ctx.timeDomain() + "@" + timestamp + " ctx@" + ctx.timestamp());
        }
    }

    /** Appends the timestamp each record arrives with. */
    static final class ShowTimestamp extends ProcessFunction<String, String> {
        @Override
        public void processElement(String value, Context ctx, Collector<String> out) {
            out.collect(value + " ts=" + ctx.timestamp());
        }
    }

    @Test
    void bothInputsAndTimersSeeTheirKeyAndTimestamp() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<Tuple2<String, Long>> orders = timestamped(env.fromElements(Tuple2.of("a", 10L), Tuple2.of("b", 20L)));
        DataStream<Tuple2<String, Long>> payments = timestamped(env.fromElements(Tuple2.of("a", 12L)));

        SingleOutputStreamOperator<String> matched = orders.connect(payments)
                .keyBy(order -> order.f0, payment -> payment.f0)
                .process(new OrdersAndPayments());
        DataStream<String> shown = matched.union(matched.getSideOutput(SIDE).map(s -> "side " + s))
                .process(new ShowTimestamp());

        List<String> results = new ArrayList<>();
        try (CloseableIterator<String> it = shown.executeAndCollect("keyed-co-process")) {
            it.forEachRemaining(results::add);
        }
        // The end of the bounded inputs emits the maximum watermark, which fires both timers.
        assertThat(results).containsExactlyInAnyOrder(
                "order a@10 ts=10",
                "order b@20 ts=20",
                "payment a@12 ts=12",
                "side payment a ts=12",
                "timer a EVENT_TIME@15 ctx@15 ts=15",
                "timer b EVENT_TIME@25 ctx@25 ts=25",
                "side timer a ts=15",
                "side timer b ts=25");
    }

    private static DataStream<Tuple2<String, Long>> timestamped(DataStream<Tuple2<String, Long>> stream) {
        return stream.assignTimestampsAndWatermarks(WatermarkStrategy.<Tuple2<String, Long>>forMonotonousTimestamps()
                .withTimestampAssigner((event, previous) -> event.f1));
    }
}
