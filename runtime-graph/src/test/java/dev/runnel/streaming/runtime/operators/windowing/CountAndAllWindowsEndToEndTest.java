package dev.runnel.streaming.runtime.operators.windowing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.streaming.api.datastream.KeyedStream;
import dev.runnel.streaming.api.datastream.WindowedStream;
import dev.runnel.streaming.api.functions.windowing.AllWindowFunction;
import dev.runnel.streaming.api.functions.windowing.WindowFunction;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.datastream.SingleOutputStreamOperator;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.windowing.ProcessAllWindowFunction;
import dev.runnel.streaming.api.functions.windowing.RichAllWindowFunction;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.windows.GlobalWindow;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import dev.runnel.streaming.util.AbstractStreamOperatorTestHarness;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Count windows and windows of the whole stream on the embedded runtime, against brute-force
 * computations over random input (fixed seeds).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class CountAndAllWindowsEndToEndTest {

    /** An event: key, event time, value. */
    public record Event(int key, long time, long value) {}

    private static List<Event> randomEvents(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Event> events = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            events.add(new Event(random.nextInt(20), Math.max(0, i * 3L - random.nextLong(200)), random.nextInt(1000)));
        }
        return events;
    }

    private static <T> List<T> collect(DataStream<T> stream) throws Exception {
        List<T> out = new ArrayList<>();
        stream.executeAndCollect().forEachRemaining(out::add);
        return out;
    }

    /** (key, sum, count) of each fired window, counted; a window's elements are {@code values[from, to)} of its key. */
    private static Map<String, Integer> fired(Map<String, Integer> into, int key, List<Long> values, int from, int to) {
        long sum = 0;
        for (int i = from; i < to; i++) {
            sum += values.get(i);
        }
        into.merge(key + "/" + sum + "/" + (to - from), 1, Integer::sum);
        return into;
    }

    private static Map<Integer, List<Long>> valuesByKey(List<Event> events) {
        Map<Integer, List<Long>> byKey = new HashMap<>();
        events.forEach(e -> byKey.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e.value()));
        return byKey;
    }

    private static Map<String, Integer> counted(List<Tuple3<Integer, Long, Long>> results) {
        Map<String, Integer> map = new TreeMap<>();
        results.forEach(r -> map.merge(r.f0 + "/" + r.f1 + "/" + r.f2, 1, Integer::sum));
        return map;
    }

    /** (key, sum, count) of each window's values. */
    private static SingleOutputStreamOperator<Tuple3<Integer, Long, Long>> sumsAndCounts(DataStream<Event> events,
            Function<KeyedStream<Event, Integer>, WindowedStream<Event, Integer, GlobalWindow>> windows) {
        return windows.apply(events.keyBy(Event::key, Types.INT)).aggregate(new SumAndCount(), new WithKey());
    }

    /** 1..n from a non-parallel source, so that their order is kept. */
    private static DataStream<Long> sequence(StreamExecutionEnvironment env, long n) {
        List<Long> values = new ArrayList<>();
        for (long v = 1; v <= n; v++) {
            values.add(v);
        }
        return env.fromCollection(values);
    }

    @Test
    void tumblingCountWindowsMatchBruteForce() throws Exception {
        List<Event> events = randomEvents(5_000, 11);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        var results = collect(sumsAndCounts(env.fromCollection(events), k -> k.countWindow(7)));
        Map<String, Integer> expected = new TreeMap<>();
        valuesByKey(events).forEach((key, values) -> {
            for (int end = 7; end <= values.size(); end += 7) {
                fired(expected, key, values, end - 7, end);
            }
        });
        assertThat(counted(results)).isEqualTo(expected);
    }

    @Test
    void slidingCountWindowsMatchBruteForce() throws Exception {
        slidingCountWindowsMatchBruteForce(5_000, 12, "heap");
    }

    @Test
    void slidingCountWindowsOnTheRocksDbStore() throws Exception {
        slidingCountWindowsMatchBruteForce(2_000, 14, "rocksdb");
    }

    private static void slidingCountWindowsMatchBruteForce(int n, long seed, String stateBackend) throws Exception {
        List<Event> events = randomEvents(n, seed);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setStateBackend(AbstractStreamOperatorTestHarness.configuredBackend(stateBackend));
        var results = collect(sumsAndCounts(env.fromCollection(events), k -> k.countWindow(5, 3)));
        Map<String, Integer> expected = new TreeMap<>();
        valuesByKey(events).forEach((key, values) -> {
            for (int end = 3; end <= values.size(); end += 3) {
                fired(expected, key, values, Math.max(0, end - 5), end);
            }
        });
        assertThat(counted(results)).isEqualTo(expected);
    }

    @Test
    void slidingCountWindowsOfTheWholeStreamMatchBruteForce() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<String> results = collect(sequence(env, 1_000).countWindowAll(4, 3).apply(new ListAll()));
        List<String> expected = new ArrayList<>();
        for (long end = 3; end <= 1_000; end += 3) {
            List<Long> window = new ArrayList<>();
            for (long v = Math.max(1, end - 3); v <= end; v++) {
                window.add(v);
            }
            expected.add(window.toString());
        }
        assertThat(results).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void eventTimeWindowsOfTheWholeStreamMatchBruteForce() throws Exception {
        List<Event> events = randomEvents(20_000, 13);
        Map<Long, Long> expected = new TreeMap<>();
        events.forEach(e -> expected.merge(Math.floorDiv(e.time(), 1000) * 1000, e.value(), Long::sum));

        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        var windows = env.fromCollection(events)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Event>forBoundedOutOfOrderness(Duration.ofMillis(200))
                        .withTimestampAssigner((e, ts) -> e.time()))
                .map(e -> e.value()).returns(Types.LONG)     // parallel: the window gathers both subtasks
                .windowAll(TumblingEventTimeWindows.of(Duration.ofMillis(1000)));
        assertThat(windowSums(collect(windows.process(new StartAndSum())))).isEqualTo(expected);
        assertThat(windowSums(collect(windows.reduce(Long::sum, new SumWithStart())))).isEqualTo(expected);
        assertThat(windowSums(collect(windows.aggregate(new Sum(), new SumWithStart())))).isEqualTo(expected);
        assertThat(windowSums(collect(windows.apply(new SumWithStart())))).isEqualTo(expected);
    }

    private static Map<Long, Long> windowSums(List<Tuple2<Long, Long>> results) {
        Map<Long, Long> map = new TreeMap<>();
        results.forEach(r -> assertThat(map.put(r.f0, r.f1)).as("one result per window").isNull());
        return map;
    }

    @Test
    void windowsOfTheWholeStreamRunAsOneSubtask() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(4);
        SingleOutputStreamOperator<Long> sums = env.fromSequence(1, 10).countWindowAll(2).reduce(Long::sum);
        assertThat(sums.getParallelism()).isEqualTo(1);
        assertThat(sums.getTransformation().getMaxParallelism()).isEqualTo(1);
        sums.setParallelism(1);
        assertThatThrownBy(() -> sums.setParallelism(2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must be 1");
        assertThatThrownBy(() -> sums.setMaxParallelism(8)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void processAllWindowFunctionsHaveWindowAndGlobalStateAndTheirLifecycle() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<String> results = collect(sequence(env, 9).countWindowAll(3).process(new NumberedFirings()));
        assertThat(results).containsExactlyInAnyOrder("firing 1 of 1: [1, 2, 3]", "firing 2 of 1: [4, 5, 6]",
                "firing 3 of 1: [7, 8, 9]");
    }

    /** Sum and count of the values. */
    static final class SumAndCount implements AggregateFunction<Event, Tuple2<Long, Long>, Tuple2<Long, Long>> {
        @Override
        public Tuple2<Long, Long> createAccumulator() {
            return Tuple2.of(0L, 0L);
        }

        @Override
        public Tuple2<Long, Long> add(Event value, Tuple2<Long, Long> acc) {
            return Tuple2.of(acc.f0 + value.value(), acc.f1 + 1);
        }

        @Override
        public Tuple2<Long, Long> getResult(Tuple2<Long, Long> acc) {
            return acc;
        }

        @Override
        public Tuple2<Long, Long> merge(Tuple2<Long, Long> a, Tuple2<Long, Long> b) {
            return Tuple2.of(a.f0 + b.f0, a.f1 + b.f1);
        }
    }

    /** (key, sum, count). */
    static final class WithKey implements WindowFunction<Tuple2<Long, Long>, Tuple3<Integer, Long, Long>, Integer, GlobalWindow> {
        @Override
        public void apply(Integer key, GlobalWindow window, Iterable<Tuple2<Long, Long>> input,
                Collector<Tuple3<Integer, Long, Long>> out) {
            Tuple2<Long, Long> sumAndCount = input.iterator().next();
            out.collect(Tuple3.of(key, sumAndCount.f0, sumAndCount.f1));
        }
    }

    static final class Sum implements AggregateFunction<Long, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(Long value, Long acc) {
            return acc + value;
        }

        @Override
        public Long getResult(Long acc) {
            return acc;
        }

        @Override
        public Long merge(Long a, Long b) {
            return a + b;
        }
    }

    /** The window's elements as a list. */
    static final class ListAll extends RichAllWindowFunction<Long, String, GlobalWindow> {
        private transient String opened;

        @Override
        public void open(OpenContext openContext) {
            opened = "opened";
        }

        @Override
        public void apply(GlobalWindow window, Iterable<Long> values, Collector<String> out) {
            assertThat(opened).as("open() ran through the adapter").isEqualTo("opened");
            List<Long> list = new ArrayList<>();
            values.forEach(list::add);
            out.collect(list.toString());
        }
    }

    /** (window start, sum of the elements): of a pre-aggregated window, its one value. */
    static final class SumWithStart implements AllWindowFunction<Long, Tuple2<Long, Long>, TimeWindow> {
        @Override
        public void apply(TimeWindow window, Iterable<Long> values, Collector<Tuple2<Long, Long>> out) {
            out.collect(Tuple2.of(window.getStart(), sum(values)));
        }

        static long sum(Iterable<Long> values) {
            long sum = 0;
            for (long v : values) {
                sum += v;
            }
            return sum;
        }
    }

    /** (window start, sum of the elements), from the context's window. */
    static final class StartAndSum extends ProcessAllWindowFunction<Long, Tuple2<Long, Long>, TimeWindow> {
        @Override
        public void process(Context ctx, Iterable<Long> elements, Collector<Tuple2<Long, Long>> out) {
            out.collect(Tuple2.of(ctx.window().getStart(), SumWithStart.sum(elements)));
        }
    }

    /** Numbers the firings in global state, and the evaluations of each window in window state. */
    static final class NumberedFirings extends ProcessAllWindowFunction<Long, String, GlobalWindow> {
        private static final ValueStateDescriptor<Long> FIRINGS = new ValueStateDescriptor<>("firings", Types.LONG);
        private static final ValueStateDescriptor<Long> EVALUATIONS = new ValueStateDescriptor<>("evaluations", Types.LONG);

        @Override
        public void process(Context ctx, Iterable<Long> elements, Collector<String> out) throws Exception {
            long firing = increment(ctx.globalState().getState(FIRINGS));
            List<Long> list = new ArrayList<>();
            elements.forEach(list::add);
            out.collect("firing " + firing + " of " + increment(ctx.windowState().getState(EVALUATIONS)) + ": " + list);
            ctx.windowState().getState(EVALUATIONS).clear();   // count windows purge, so start over per firing
        }

        private static long increment(ValueState<Long> state) throws Exception {
            long next = state.value() == null ? 1 : state.value() + 1;
            state.update(next);
            return next;
        }
    }
}
