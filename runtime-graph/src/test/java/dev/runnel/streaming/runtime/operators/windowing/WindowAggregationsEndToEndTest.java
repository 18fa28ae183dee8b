package dev.runnel.streaming.runtime.operators.windowing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.streaming.api.datastream.AllWindowedStream;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.datastream.SingleOutputStreamOperator;
import dev.runnel.streaming.api.datastream.WindowedStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The field aggregations of keyed and all-windows, written as Flink's documentation uses them
 * ({@code windowedStream.sum(1)}, {@code windowedStream.maxBy("value")}, ...), on the embedded
 * runtime with exact results.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WindowAggregationsEndToEndTest {

    /** A sensor reading; {@code tag} tells the records apart. */
    public record Reading(String sensor, int value, String tag) {}

    /** Window [0, 10): a = 3, 1, 1, 5 and b = 2, 2; window [10, 20): a = 7. */
    private static final List<Reading> READINGS = List.of(
            new Reading("a", 3, "a1"), new Reading("a", 1, "a2"), new Reading("b", 2, "b1"), new Reading("a", 1, "a3"),
            new Reading("b", 2, "b2"), new Reading("a", 5, "a4"), new Reading("a", 7, "a5"));
    /** The event time of each reading, by tag. */
    private static final Map<String, Long> TIMES = Map.of("a1", 1L, "a2", 2L, "b1", 3L, "a3", 4L, "b2", 5L, "a4", 6L, "a5", 12L);

    private static DataStream<Reading> readings(StreamExecutionEnvironment env) {
        return env.fromCollection(READINGS).assignTimestampsAndWatermarks(WatermarkStrategy.<Reading>forMonotonousTimestamps()
                .withTimestampAssigner((r, ts) -> TIMES.get(r.tag())));
    }

    private static DataStream<Tuple3<String, Integer, String>> tuples(StreamExecutionEnvironment env) {
        List<Tuple3<String, Integer, String>> tuples = READINGS.stream().map(r -> Tuple3.of(r.sensor(), r.value(), r.tag())).toList();
        return env.fromCollection(tuples, Types.TUPLE(Types.STRING, Types.INT, Types.STRING)).assignTimestampsAndWatermarks(
                WatermarkStrategy.<Tuple3<String, Integer, String>>forMonotonousTimestamps()
                        .withTimestampAssigner((t, ts) -> TIMES.get(t.f2)));
    }

    /** The aggregation's results as strings (in no particular order: the collecting sink is parallel). */
    private static <T> List<String> run(DataStream<T> input, Function<DataStream<T>, SingleOutputStreamOperator<T>> aggregation)
            throws Exception {
        List<String> out = new ArrayList<>();
        aggregation.apply(input).map(Object::toString).executeAndCollect().forEachRemaining(out::add);
        return out;
    }

    private static <T> WindowedStream<T, String, TimeWindow> keyed(DataStream<T> stream, KeySelector<T, String> key) {
        return stream.keyBy(key, Types.STRING).window(TumblingEventTimeWindows.of(Duration.ofMillis(10)));
    }

    private static <T> AllWindowedStream<T, TimeWindow> all(DataStream<T> stream) {
        return stream.windowAll(TumblingEventTimeWindows.of(Duration.ofMillis(10)));
    }

    private static List<String> keyedTuples(Function<WindowedStream<Tuple3<String, Integer, String>, String, TimeWindow>,
            SingleOutputStreamOperator<Tuple3<String, Integer, String>>> aggregation) throws Exception {
        return run(tuples(StreamExecutionEnvironment.createLocalEnvironment(2)), s -> aggregation.apply(keyed(s, t -> t.f0)));
    }

    private static List<String> keyedReadings(Function<WindowedStream<Reading, String, TimeWindow>,
            SingleOutputStreamOperator<Reading>> aggregation) throws Exception {
        return run(readings(StreamExecutionEnvironment.createLocalEnvironment(2)), s -> aggregation.apply(keyed(s, Reading::sensor)));
    }

    private static List<String> allTuples(Function<AllWindowedStream<Tuple3<String, Integer, String>, TimeWindow>,
            SingleOutputStreamOperator<Tuple3<String, Integer, String>>> aggregation) throws Exception {
        return run(tuples(StreamExecutionEnvironment.createLocalEnvironment(2)), s -> aggregation.apply(all(s)));
    }

    private static List<String> allReadings(Function<AllWindowedStream<Reading, TimeWindow>,
            SingleOutputStreamOperator<Reading>> aggregation) throws Exception {
        return run(readings(StreamExecutionEnvironment.createLocalEnvironment(2)), s -> aggregation.apply(all(s)));
    }

    @Test
    void keyedWindowsByPosition() throws Exception {
        assertThat(keyedTuples(w -> w.sum(1))).containsExactlyInAnyOrder("(a,10,a1)", "(b,4,b1)", "(a,7,a5)");
        assertThat(keyedTuples(w -> w.min(1))).containsExactlyInAnyOrder("(a,1,a1)", "(b,2,b1)", "(a,7,a5)");
        assertThat(keyedTuples(w -> w.max(1))).containsExactlyInAnyOrder("(a,5,a1)", "(b,2,b1)", "(a,7,a5)");
        assertThat(keyedTuples(w -> w.minBy(1))).containsExactlyInAnyOrder("(a,1,a2)", "(b,2,b1)", "(a,7,a5)");
        assertThat(keyedTuples(w -> w.minBy(1, false))).containsExactlyInAnyOrder("(a,1,a3)", "(b,2,b2)", "(a,7,a5)");
        assertThat(keyedTuples(w -> w.maxBy(1))).containsExactlyInAnyOrder("(a,5,a4)", "(b,2,b1)", "(a,7,a5)");
        assertThat(keyedTuples(w -> w.maxBy(1, false))).containsExactlyInAnyOrder("(a,5,a4)", "(b,2,b2)", "(a,7,a5)");
    }

    @Test
    void keyedWindowsByFieldName() throws Exception {
        assertThat(keyedReadings(w -> w.sum("value"))).containsExactlyInAnyOrder(
                "Reading[sensor=a, value=10, tag=a1]", "Reading[sensor=b, value=4, tag=b1]", "Reading[sensor=a, value=7, tag=a5]");
        assertThat(keyedReadings(w -> w.min("value"))).containsExactlyInAnyOrder(
                "Reading[sensor=a, value=1, tag=a1]", "Reading[sensor=b, value=2, tag=b1]", "Reading[sensor=a, value=7, tag=a5]");
        assertThat(keyedReadings(w -> w.max("value"))).containsExactlyInAnyOrder(
                "Reading[sensor=a, value=5, tag=a1]", "Reading[sensor=b, value=2, tag=b1]", "Reading[sensor=a, value=7, tag=a5]");
        assertThat(keyedReadings(w -> w.minBy("value", false))).containsExactlyInAnyOrder(
                "Reading[sensor=a, value=1, tag=a3]", "Reading[sensor=b, value=2, tag=b2]", "Reading[sensor=a, value=7, tag=a5]");
        assertThat(keyedReadings(w -> w.maxBy("value"))).containsExactlyInAnyOrder(
                "Reading[sensor=a, value=5, tag=a4]", "Reading[sensor=b, value=2, tag=b1]", "Reading[sensor=a, value=7, tag=a5]");
    }

    @Test
    void allWindowsByPosition() throws Exception {
        assertThat(allTuples(w -> w.sum(1))).containsExactlyInAnyOrder("(a,14,a1)", "(a,7,a5)");
        assertThat(allTuples(w -> w.min(1))).containsExactlyInAnyOrder("(a,1,a1)", "(a,7,a5)");
        assertThat(allTuples(w -> w.max(1))).containsExactlyInAnyOrder("(a,5,a1)", "(a,7,a5)");
        assertThat(allTuples(w -> w.minBy(1))).containsExactlyInAnyOrder("(a,1,a2)", "(a,7,a5)");
        assertThat(allTuples(w -> w.maxBy(1, false))).containsExactlyInAnyOrder("(a,5,a4)", "(a,7,a5)");
    }

    @Test
    void allWindowsByFieldName() throws Exception {
        assertThat(allReadings(w -> w.sum("value"))).containsExactlyInAnyOrder(
                "Reading[sensor=a, value=14, tag=a1]", "Reading[sensor=a, value=7, tag=a5]");
        assertThat(allReadings(w -> w.minBy("value", false))).containsExactlyInAnyOrder(
                "Reading[sensor=a, value=1, tag=a3]", "Reading[sensor=a, value=7, tag=a5]");
        assertThat(allReadings(w -> w.maxBy("value"))).containsExactlyInAnyOrder(
                "Reading[sensor=a, value=5, tag=a4]", "Reading[sensor=a, value=7, tag=a5]");
    }
}
