package dev.runnel.streaming.api.datastream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.CoGroupFunction;
import dev.runnel.api.common.functions.FlatJoinFunction;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.JoinFunction;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.functions.RichJoinFunction;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.ProcessFunction;
import dev.runnel.streaming.api.windowing.assigners.GlobalWindows;
import dev.runnel.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.windows.GlobalWindow;
import dev.runnel.streaming.util.AbstractStreamOperatorTestHarness;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Window joins and co-groups as Flink's documentation writes them
 * ({@code orange.join(green).where(...).equalTo(...).window(...).apply(...)}), on the embedded
 * runtime, against brute-force computations over random, out-of-order input (fixed seeds).
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class JoinEndToEndTest {

    /** An event: key, event time, value. */
    public record Event(int key, long time, int value) {}

    private static final long MAX_DELAY = 200;

    private static List<Event> randomEvents(int n, int keys, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Event> events = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            events.add(new Event(random.nextInt(keys), Math.max(0, i * 3L - random.nextLong(MAX_DELAY)), random.nextInt(1000)));
        }
        return events;
    }

    /** Two random inputs, as lists and as streams of one job (at parallelism 2). */
    private record Inputs(List<Event> orange, List<Event> green, DataStream<Event> orangeStream, DataStream<Event> greenStream) {}

    private static Inputs inputs(int n, int keys, long seed) {
        return inputs(n, keys, seed, "heap");
    }

    private static Inputs inputs(int n, int keys, long seed, String stateBackend) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setStateBackend(AbstractStreamOperatorTestHarness.configuredBackend(stateBackend));
        List<Event> orange = randomEvents(n, keys, seed);
        List<Event> green = randomEvents(n, keys, seed + 1);
        return new Inputs(orange, green, stream(env, orange), stream(env, green));
    }

    private static DataStream<Event> stream(StreamExecutionEnvironment env, List<Event> events) {
        return env.fromCollection(events).assignTimestampsAndWatermarks(
                WatermarkStrategy.<Event>forBoundedOutOfOrderness(Duration.ofMillis(MAX_DELAY)).withTimestampAssigner((e, ts) -> e.time()));
    }

    /** Each result with the timestamp it carries, counted. */
    private static Map<String, Integer> collectWithTimestamps(DataStream<String> results) throws Exception {
        Map<String, Integer> counted = new TreeMap<>();
        results.process(new ProcessFunction<String, String>() {
            @Override
            public void processElement(String value, Context ctx, Collector<String> out) {
                out.collect(value + "@" + ctx.timestamp());
            }
        }).executeAndCollect().forEachRemaining(s -> counted.merge(s, 1, Integer::sum));
        return counted;
    }

    /** For every pair of one key in one of the windows {@code starts} gives, {@code result} of the pair, counted. */
    private static Map<String, Integer> bruteForcePairs(Inputs inputs, long size,
            java.util.function.Function<Long, List<Long>> starts, BiFunction<Event, Event, String> result) {
        Map<String, Integer> expected = new TreeMap<>();
        for (Event l : inputs.orange()) {
            for (Event r : inputs.green()) {
                if (l.key() != r.key()) {
                    continue;
                }
                for (long start : starts.apply(l.time())) {
                    if (r.time() >= start && r.time() < start + size && result.apply(l, r) != null) {
                        expected.merge(result.apply(l, r) + "@" + (start + size - 1), 1, Integer::sum);
                    }
                }
            }
        }
        return expected;
    }

    private static List<Long> tumbling(long time, long size) {
        return List.of(Math.floorDiv(time, size) * size);
    }

    private static List<Long> sliding(long time, long size, long slide) {
        List<Long> starts = new ArrayList<>();
        for (long start = Math.floorDiv(time, slide) * slide; start > time - size; start -= slide) {
            starts.add(start);
        }
        return starts;
    }

    private static String pair(Event l, Event r) {
        return l.key() + ":" + l.value() + ":" + r.value();
    }

    @Test
    void tumblingWindowJoinMatchesBruteForce() throws Exception {
        tumblingWindowJoinMatchesBruteForce(inputs(3_000, 10, 21));
    }

    @Test
    void tumblingWindowJoinOnTheRocksDbStore() throws Exception {
        tumblingWindowJoinMatchesBruteForce(inputs(1_000, 10, 31, "rocksdb"));
    }

    private static void tumblingWindowJoinMatchesBruteForce(Inputs in) throws Exception {
        DataStream<String> joined = in.orangeStream().join(in.greenStream())
                .where(Event::key).equalTo(Event::key)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(500)))
                .apply(new JoinFunction<Event, Event, String>() {
                    @Override
                    public String join(Event first, Event second) {
                        return pair(first, second);
                    }
                });
        assertThat(collectWithTimestamps(joined))
                .isEqualTo(bruteForcePairs(in, 500, t -> tumbling(t, 500), JoinEndToEndTest::pair));
    }

    @Test
    void slidingWindowJoinEmitsAPairOncePerWindowHoldingBoth() throws Exception {
        Inputs in = inputs(2_000, 10, 23);
        DataStream<String> joined = in.orangeStream().join(in.greenStream())
                .where(Event::key).equalTo(Event::key)
                .window(SlidingEventTimeWindows.of(Duration.ofMillis(600), Duration.ofMillis(200)))
                .apply((Event first, Event second) -> pair(first, second), Types.STRING);
        assertThat(collectWithTimestamps(joined))
                .isEqualTo(bruteForcePairs(in, 600, t -> sliding(t, 600, 200), JoinEndToEndTest::pair));
    }

    @Test
    void flatJoinEmitsWhatTheFunctionCollects() throws Exception {
        Inputs in = inputs(2_000, 10, 25);
        DataStream<String> joined = in.orangeStream().join(in.greenStream())
                .where(Event::key).equalTo(Event::key)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(300)))
                .apply(new FlatJoinFunction<Event, Event, String>() {
                    @Override
                    public void join(Event first, Event second, Collector<String> out) {
                        if (first.value() < second.value()) {
                            out.collect(pair(first, second));
                        }
                    }
                });
        assertThat(collectWithTimestamps(joined)).isEqualTo(bruteForcePairs(in, 300, t -> tumbling(t, 300),
                (l, r) -> l.value() < r.value() ? pair(l, r) : null));
    }

    @Test
    void coGroupSeesBothSidesOfEveryKeyAndWindowEvenWhenOneIsEmpty() throws Exception {
        Inputs in = inputs(1_000, 40, 27);
        DataStream<String> grouped = in.orangeStream().coGroup(in.greenStream())
                .where(Event::key).equalTo(Event::key)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(200)))
                .apply(new CoGroupFunction<Event, Event, String>() {
                    @Override
                    public void coGroup(Iterable<Event> first, Iterable<Event> second, Collector<String> out) {
                        out.collect(summary(first) + "|" + summary(second));
                    }
                });
        Map<String, List<Event>[]> groups = new TreeMap<>();
        collectGroups(groups, in.orange(), 0);
        collectGroups(groups, in.green(), 1);
        Map<String, Integer> expected = new TreeMap<>();
        groups.forEach((keyAndWindow, sides) -> expected.merge(summary(sides[0]) + "|" + summary(sides[1]) + "@"
                + keyAndWindow.substring(keyAndWindow.indexOf('/') + 1), 1, Integer::sum));
        assertThat(collectWithTimestamps(grouped)).isEqualTo(expected);
        assertThat(expected.keySet()).as("the input has keys and windows with one side only")
                .anyMatch(s -> s.startsWith("[]|")).anyMatch(s -> s.contains("|[]"));
    }

    /** Adds {@code events} as side {@code side} of the groups, by "key/window max timestamp". */
    @SuppressWarnings("unchecked")
    private static void collectGroups(Map<String, List<Event>[]> groups, List<Event> events, int side) {
        for (Event e : events) {
            long maxTimestamp = Math.floorDiv(e.time(), 200) * 200 + 199;
            groups.computeIfAbsent(e.key() + "/" + maxTimestamp, k -> new List[] {new ArrayList<>(), new ArrayList<>()})[side].add(e);
        }
    }

    /** The sorted values of one side of a co-group. */
    private static String summary(Iterable<Event> events) {
        List<Integer> values = new ArrayList<>();
        events.forEach(e -> values.add(e.value()));
        values.sort(null);
        return values.toString();
    }

    @Test
    void joinOverTheWholeInputWithEndOfStreamWindows() throws Exception {
        Inputs in = inputs(300, 10, 29);
        List<String> results = new ArrayList<>();
        in.orangeStream().join(in.greenStream()).where(Event::key).equalTo(Event::key)
                .window(GlobalWindows.createWithEndOfStreamTrigger())
                .apply(new Counted()).executeAndCollect().forEachRemaining(results::add);
        List<String> expected = new ArrayList<>();
        for (Event l : in.orange()) {
            for (Event r : in.green()) {
                if (l.key() == r.key()) {
                    expected.add("opened " + pair(l, r));
                }
            }
        }
        assertThat(results).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void windowSettingsReturnANewJoinAndLeaveTheOldOneAsInFlink() throws Exception {
        Inputs in = inputs(50, 3, 33);
        JoinedStreams.WithWindow<Event, Event, Integer, GlobalWindow> never = in.orangeStream().join(in.greenStream())
                .where(Event::key).equalTo(Event::key).window(GlobalWindows.create());
        JoinedStreams.WithWindow<Event, Event, Integer, GlobalWindow> atTheEnd = never.trigger(new GlobalWindows.EndOfStreamTrigger());
        assertThat(atTheEnd).isNotSameAs(never);
        List<String> neverFired = new ArrayList<>();
        never.apply(JoinEndToEndTest::pair, Types.STRING).executeAndCollect().forEachRemaining(neverFired::add);
        assertThat(neverFired).as("the default trigger of global windows never fires").isEmpty();
    }

    @Test
    void aLambdaJoinNeedsItsTupleTypeDeclaredAsInFlink() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        List<Event> orange = List.of(new Event(1, 1, 10), new Event(2, 2, 20));
        List<Event> green = List.of(new Event(1, 3, 30), new Event(1, 4, 40));
        SingleOutputStreamOperator<Tuple2<Integer, Integer>> untyped = stream(env, orange).join(stream(env, green))
                .where(Event::key).equalTo(Event::key).window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .apply((Event l, Event r) -> Tuple2.of(l.value(), r.value()));
        assertThatThrownBy(untyped::getType).isInstanceOf(InvalidTypesException.class).hasMessageContaining("returns(");
        List<Tuple2<Integer, Integer>> results = new ArrayList<>();
        untyped.returns(Types.TUPLE(Types.INT, Types.INT)).executeAndCollect().forEachRemaining(results::add);
        assertThat(results).containsExactlyInAnyOrder(Tuple2.of(10, 30), Tuple2.of(10, 40));
    }

    /** A rich join function: open() must run through the co-group wrappers. */
    static final class Counted extends RichJoinFunction<Event, Event, String> {
        private transient String prefix;

        @Override
        public void open(OpenContext openContext) {
            prefix = "opened ";
        }

        @Override
        public String join(Event first, Event second) {
            return prefix + pair(first, second);
        }
    }
}
