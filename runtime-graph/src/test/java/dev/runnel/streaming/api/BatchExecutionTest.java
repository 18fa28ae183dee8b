package dev.runnel.streaming.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.RuntimeExecutionMode;
import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.eventtime.WatermarkGenerator;
import dev.runnel.api.common.eventtime.WatermarkOutput;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.configuration.Configuration;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** {@code execution.runtime-mode}: STREAMING emits every update, BATCH only final results. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BatchExecutionTest {

    private static DataStream<Tuple2<String, Integer>> wordCount(StreamExecutionEnvironment env) {
        return env.fromElements("a b a", "c b a")
                .flatMap((String line, Collector<Tuple2<String, Integer>> out) -> {
                    for (String word : line.split(" ")) {
                        out.collect(Tuple2.of(word, 1));
                    }
                })
                .returns(Types.TUPLE(Types.STRING, Types.INT))
                .keyBy(t -> t.f0)
                .sum(1);
    }

    private static <T> List<T> collect(DataStream<T> stream) throws Exception {
        List<T> result = new ArrayList<>();
        stream.executeAndCollect().forEachRemaining(result::add);
        return result;
    }

    @Test
    void streamingWordCountEmitsEveryRollingUpdate() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.setRuntimeMode(RuntimeExecutionMode.STREAMING);
        assertThat(collect(wordCount(env))).containsExactly(
                Tuple2.of("a", 1), Tuple2.of("b", 1), Tuple2.of("a", 2),
                Tuple2.of("c", 1), Tuple2.of("b", 2), Tuple2.of("a", 3));
    }

    @Test
    void batchWordCountEmitsOneFinalLinePerWord() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        assertThat(collect(wordCount(env)))
                .containsExactlyInAnyOrder(Tuple2.of("a", 3), Tuple2.of("b", 2), Tuple2.of("c", 1));
    }

    @Test
    void theConfigurationKeySelectsBatchToo() throws Exception {
        Configuration conf = new Configuration().setString("execution.runtime-mode", "batch");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1, conf);
        List<Tuple2<String, Integer>> max = collect(wordCount(env).keyBy(t -> "all").maxBy(1));
        assertThat(max).containsExactly(Tuple2.of("a", 3));
    }

    /** A watermark after every event, at its timestamp: in STREAMING the 3 arrives after window [0,10) fired. */
    private static DataStream<Tuple3<String, Long, Integer>> punctuatedEvents(StreamExecutionEnvironment env) {
        WatermarkStrategy<Tuple3<String, Long, Integer>> punctuated = WatermarkStrategy
                .<Tuple3<String, Long, Integer>>forGenerator(context -> new PerEventWatermarks<>())
                .withTimestampAssigner((event, ts) -> event.f1);
        return env.fromElements(Tuple3.of("k", 1L, 1), Tuple3.of("k", 15L, 1), Tuple3.of("k", 3L, 1),
                        Tuple3.of("k", 12L, 1))
                .assignTimestampsAndWatermarks(punctuated);
    }

    private static DataStream<Tuple3<String, Long, Integer>> windowedCounts(StreamExecutionEnvironment env) {
        return punctuatedEvents(env)
                .keyBy(t -> t.f0)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .reduce((a, b) -> Tuple3.of(a.f0, Math.min(a.f1, b.f1), a.f2 + b.f2));
    }

    @Test
    void streamingWindowsFireOnWatermarksAndDropLateRecords() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        assertThat(collect(windowedCounts(env))).containsExactly(Tuple3.of("k", 1L, 1), Tuple3.of("k", 12L, 2));
    }

    @Test
    void batchWindowsIgnoreWatermarksInTheDataAndFireAtTheEnd() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        assertThat(collect(windowedCounts(env))).containsExactly(Tuple3.of("k", 1L, 2), Tuple3.of("k", 12L, 2));
    }

    @Test
    void batchWindowsOfTheWholeStreamAndWindowJoinsSeeTheRecordsStreamingWouldDropAsLate() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        DataStream<Integer> allSums = punctuatedEvents(env)
                .windowAll(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .reduce((a, b) -> Tuple3.of(a.f0, Math.min(a.f1, b.f1), a.f2 + b.f2))
                .map(t -> t.f2);
        assertThat(collect(allSums)).containsExactly(2, 2);

        DataStream<String> pairs = punctuatedEvents(env).join(punctuatedEvents(env))
                .where(t -> t.f0).equalTo(t -> t.f0)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .apply((l, r) -> l.f1 + "-" + r.f1, Types.STRING);
        assertThat(collect(pairs)).containsExactlyInAnyOrder(
                "1-1", "1-3", "3-1", "3-3", "15-15", "15-12", "12-15", "12-12");
    }

    @Test
    void batchFiresProcessingTimeTimersAtTheEndOfInput() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        DataStream<String> out = env.fromElements("x", "y", "x").keyBy(s -> s).process(new InAnHour());
        assertThat(collect(out)).containsExactlyInAnyOrder("x", "y", "x", "timer x", "timer y");
    }

    @Test
    void automaticPicksBatchWhenEverySourceIsBounded() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setRuntimeMode(RuntimeExecutionMode.AUTOMATIC);
        wordCount(env).union(env.fromSequence(1, 3).map(i -> Tuple2.of("n", i.intValue()))
                        .returns(Types.TUPLE(Types.STRING, Types.INT)))
                .print();
        assertThat(env.getStreamGraph().getRuntimeExecutionMode()).isEqualTo(RuntimeExecutionMode.BATCH);

        env.setRuntimeMode(RuntimeExecutionMode.AUTOMATIC);
        assertThat(collect(wordCount(env)))
                .containsExactlyInAnyOrder(Tuple2.of("a", 3), Tuple2.of("b", 2), Tuple2.of("c", 1));
    }

    @Test
    void automaticPicksStreamingWithAnUnboundedSource() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setRuntimeMode(RuntimeExecutionMode.AUTOMATIC);
        env.fromElements("a").union(env.socketTextStream("localhost", 9)).print();
        assertThat(env.getStreamGraph().getRuntimeExecutionMode()).isEqualTo(RuntimeExecutionMode.STREAMING);
    }

    @Test
    void streamingIsTheDefault() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromElements("a").print();
        assertThat(env.getStreamGraph().getRuntimeExecutionMode()).isEqualTo(RuntimeExecutionMode.STREAMING);
    }

    @Test
    void batchWithAnUnboundedSourceFailsAtBuildTimeNamingIt() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.setRuntimeMode(RuntimeExecutionMode.BATCH);
        env.socketTextStream("localhost", 9).name("clicks").print();
        assertThatThrownBy(env::getStreamGraph)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("Source 'clicks' is unbounded (CONTINUOUS_UNBOUNDED), but the job 'Runnel Streaming Job' "
                        + "is set to run in BATCH mode ('execution.runtime-mode'), which needs every source to end. "
                        + "Use a bounded source, or set the runtime mode to STREAMING or AUTOMATIC.");
    }

    /** Emits each element and, at processing time 2100-01-01 (in BATCH: at the end of input), "timer key". */
    static final class InAnHour extends KeyedProcessFunction<String, String, String> {
        @Override
        public void processElement(String value, Context ctx, Collector<String> out) {
            ctx.timerService().registerProcessingTimeTimer(4_102_444_800_000L);
            out.collect(value);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> out) {
            out.collect("timer " + ctx.getCurrentKey());
        }
    }

    /** A watermark at each event's timestamp. */
    static final class PerEventWatermarks<T> implements WatermarkGenerator<T> {
        @Override
        public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
            output.emitWatermark(new Watermark(eventTimestamp));
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {}
    }
}
