package dev.runnel.examples.fraud;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Flags a likely stolen card: a small transaction (under 1.00) followed, on the same account and
 * within one minute of event time, by a large one (over 500.00). A {@link KeyedProcessFunction}
 * keeps a flag per account in keyed state and an event-time timer that clears it after the minute.
 */
public final class FraudDetection {

    public static final double SMALL_AMOUNT = 1.00;
    public static final double LARGE_AMOUNT = 500.00;
    public static final long ONE_MINUTE = 60_000;

    private FraudDetection() {}

    /** A card transaction. */
    public record Transaction(long accountId, long timestamp, double amount) {}

    /** An alert for an account, raised by the transaction at {@code timestamp}. */
    public record Alert(long accountId, long timestamp, double amount) {}

    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        alerts(env.fromCollection(transactions(5_000, 42))).print().name("alerts");
        env.execute("FraudDetection");
    }

    /** The alerts for a stream of transactions (timestamps from the transactions). */
    public static DataStream<Alert> alerts(DataStream<Transaction> transactions) {
        return transactions
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Transaction>forMonotonousTimestamps()
                        .withTimestampAssigner((t, ts) -> t.timestamp()))
                .keyBy(Transaction::accountId, Types.LONG)
                .process(new FraudDetector()).name("fraud-detector");
    }

    /** A random but reproducible stream of transactions over a few accounts, in time order. */
    public static List<Transaction> transactions(int count, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Transaction> list = new ArrayList<>(count);
        long time = 0;
        for (int i = 0; i < count; i++) {
            time += random.nextInt(5_000);
            double roll = random.nextDouble();
            double amount = roll < 0.05 ? random.nextDouble() : roll < 0.10 ? 500 + random.nextDouble() * 500
                    : 1 + random.nextDouble() * 100;
            list.add(new Transaction(random.nextInt(20), time, Math.round(amount * 100) / 100.0));
        }
        return list;
    }

    /** Per account: remember a small transaction for a minute; alert on a large one in that minute. */
    public static final class FraudDetector extends KeyedProcessFunction<Long, Transaction, Alert> {
        private transient ValueState<Boolean> smallSeen;
        private transient ValueState<Long> clearAt;

        @Override
        public void open(OpenContext openContext) {
            smallSeen = getRuntimeContext().getState(new ValueStateDescriptor<>("small-seen", Types.BOOLEAN));
            clearAt = getRuntimeContext().getState(new ValueStateDescriptor<>("clear-at", Types.LONG));
        }

        @Override
        public void processElement(Transaction tx, Context ctx, Collector<Alert> out) throws Exception {
            if (Boolean.TRUE.equals(smallSeen.value())) {
                // Compare times too: the timer that ends the minute fires only when the watermark
                // passes it, which may be after later transactions were processed.
                if (tx.amount() > LARGE_AMOUNT && tx.timestamp() <= clearAt.value()) {
                    out.collect(new Alert(tx.accountId(), tx.timestamp(), tx.amount()));
                }
                clear(ctx);
            }
            if (tx.amount() < SMALL_AMOUNT) {
                smallSeen.update(true);
                long deadline = tx.timestamp() + ONE_MINUTE;
                ctx.timerService().registerEventTimeTimer(deadline);
                clearAt.update(deadline);
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Alert> out) {
            smallSeen.clear();
            clearAt.clear();
        }

        private void clear(Context ctx) throws Exception {
            Long deadline = clearAt.value();
            if (deadline != null) {
                ctx.timerService().deleteEventTimeTimer(deadline);
            }
            smallSeen.clear();
            clearAt.clear();
        }
    }
}
