package dev.runnel.streaming.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.connector.sink2.Sink;
import dev.runnel.api.connector.sink2.SinkWriter;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.ProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.TimestampedCollector;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a chain hands from a function's collector to the operators after it: each value with the timestamp the
 * operator set (the input's, a timer's, or none), seen by a chained sink through its context, and the key
 * context set only for chained operators that have a key.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChainedEmitTest {

    /** What the sink saw: "value@timestamp", or "value@none"; static because the sink is serialized. */
    private static final Queue<String> SEEN = new ConcurrentLinkedQueue<>();

    @BeforeEach
    void clear() {
        SEEN.clear();
    }

    /** Emits every input twice (the second a fresh tuple), and what an event-time timer at input + 100 fires. */
    static final class EmitTwiceAndOnTimer extends KeyedProcessFunction<Long, Long, Tuple2<String, Long>> {
        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple2<String, Long>> out) {
            out.collect(Tuple2.of("in", value));
            out.collect(Tuple2.of("again", value));
            if (ctx.timestamp() != null) {
                ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 100);
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Tuple2<String, Long>> out) {
            out.collect(Tuple2.of("timer", ctx.getCurrentKey()));
        }
    }

    static final class RecordingSink implements SinkFunction<Tuple2<String, Long>> {
        @Override
        public void invoke(Tuple2<String, Long> value, Context context) {
            Long timestamp = context.timestamp();
            SEEN.add(value.f0 + ":" + value.f1 + "@" + (timestamp == null ? "none" : timestamp));
        }
    }

    @Test
    void aChainedSinkSeesEachValueWithTheTimestampItsOperatorSet() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.getConfig().enableObjectReuse();
        env.fromData(1L, 2L, 3L)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Long>forMonotonousTimestamps()
                        .withTimestampAssigner((v, ts) -> v * 10))
                .keyBy(v -> v, Types.LONG)
                .process(new EmitTwiceAndOnTimer())
                .addSink(new RecordingSink());
        env.execute("timestamps to a chained sink");

        assertThat(new ArrayList<>(SEEN)).containsExactly(
                "in:1@10", "again:1@10", "in:2@20", "again:2@20", "in:3@30", "again:3@30",
                "timer:1@110", "timer:2@120", "timer:3@130");
    }

    @Test
    void valuesWithoutTimestampsReachTheSinkWithNone() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromData(4L, 5L)
                .keyBy(v -> v, Types.LONG)
                .process(new EmitTwiceAndOnTimer())
                .addSink(new RecordingSink());
        env.execute("no timestamps");

        assertThat(new ArrayList<>(SEEN)).containsExactly("in:4@none", "again:4@none", "in:5@none", "again:5@none");
    }

    /** Tags odd values "odd" on a side output; all values go on as "main"; each says the timestamp it saw. */
    static final class SplitOdd extends ProcessFunction<Long, Tuple2<String, Long>> {
        static final OutputTag<Tuple2<String, Long>> ODD =
                new OutputTag<>("odd", Types.TUPLE(Types.STRING, Types.LONG));

        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple2<String, Long>> out) {
            String seen = ctx.timestamp() == null ? "none" : String.valueOf(ctx.timestamp());
            out.collect(Tuple2.of("main saw " + seen, value));
            if (value % 2 == 1) {
                ctx.output(ODD, Tuple2.of("odd", value));
            }
        }
    }

    /** A Sink V2 writer that records what it was given. */
    static final class RecordingSinkV2 implements Sink<Tuple2<String, Long>> {
        @Override
        public SinkWriter<Tuple2<String, Long>> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(Tuple2<String, Long> value, Context ctx) {
                    SEEN.add(value.f0 + ":" + value.f1 + "@" + (ctx.timestamp() == null ? "none" : ctx.timestamp()));
                }

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }
    }

    @Test
    void aProcessFunctionsMainAndSideOutputsKeepTheInputsTimestampIntoASinkWriter() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.getConfig().enableObjectReuse();
        var split = env.fromData(1L, 2L, 3L)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Long>forMonotonousTimestamps()
                        .withTimestampAssigner((v, ts) -> v * 10))
                .process(new SplitOdd());
        split.sinkTo(new RecordingSinkV2());
        split.getSideOutput(SplitOdd.ODD).sinkTo(new RecordingSinkV2());
        env.execute("side outputs to sink writers");

        assertThat(new ArrayList<>(SEEN)).containsExactlyInAnyOrder("main saw 10:1@10", "odd:1@10",
                "main saw 20:2@20", "main saw 30:3@30", "odd:3@30");
    }

    /** Records what the chain called on it. */
    static final class RecordingOperator extends AbstractStreamOperator<Object>
            implements OneInputStreamOperator<String, Object> {
        final List<String> calls = new ArrayList<>();

        @Override
        @SuppressWarnings("rawtypes")
        public void setKeyContextElement(StreamRecord record) {
            calls.add("key " + record.getValue());
        }

        @Override
        public void processElement(StreamRecord<String> element) {
            calls.add("process " + element.getValue() + "@" + (element.hasTimestamp() ? element.getTimestamp() : "none"));
        }
    }

    @Test
    void theChainSetsTheKeyContextOnlyOfAChainedOperatorWithAKey() throws Exception {
        RecordingOperator keyed = new RecordingOperator();
        RecordingOperator plain = new RecordingOperator();
        TimestampedCollector<String> toKeyed = new TimestampedCollector<>(new ChainingOutput<>(keyed, null, null, "t", true));
        TimestampedCollector<String> toPlain = new TimestampedCollector<>(new ChainingOutput<>(plain, null, null, "t", false));
        for (TimestampedCollector<String> collector : List.of(toKeyed, toPlain)) {
            collector.setAbsoluteTimestamp(7);
            collector.collect("a");
            collector.eraseTimestamp();
            collector.collect("b");
        }
        assertThat(keyed.calls).containsExactly("key a", "process a@7", "key b", "process b@none");
        assertThat(plain.calls).containsExactly("process a@7", "process b@none");
    }
}
