package dev.runnel.streaming.runtime.operators.windowing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.datastream.KeyedStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.windowing.ProcessWindowFunction;
import dev.runnel.streaming.api.windowing.assigners.EventTimeSessionWindows;
import dev.runnel.streaming.api.windowing.assigners.SlidingEventTimeWindows;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Windows on random input with out-of-order timestamps, on the embedded runtime, against a
 * brute-force computation of the same windows.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WindowEndToEndTest {

    /** An event: a key, an event time and a value. */
    public record Event(int key, long time, long value) {}

    /** A window result: key, window bounds, aggregate. */
    public record Result(int key, long start, long end, long value) {}

    private static final long MAX_DELAY = 400;

    private static List<Event> randomEvents(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Event> events = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            long base = i * 7L;
            long time = Math.max(0, base - random.nextLong(MAX_DELAY)); // out of order by up to 400 ms
            events.add(new Event(random.nextInt(25), time, random.nextInt(100)));
        }
        return events;
    }

    private static KeyedStream<Event, Integer> keyed(StreamExecutionEnvironment env, List<Event> events) {
        return env.fromCollection(events)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Event>forBoundedOutOfOrderness(Duration.ofMillis(MAX_DELAY))
                        .withTimestampAssigner((e, ts) -> e.time()))
                .keyBy(Event::key, Types.INT);
    }

    private static <T> List<T> collect(DataStream<T> stream) throws Exception {
        List<T> out = new ArrayList<>();
        stream.executeAndCollect().forEachRemaining(out::add);
        return out;
    }

    @Test
    void tumblingReduceMatchesBruteForce() throws Exception {
        List<Event> events = randomEvents(20_000, 1);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<Result> results = collect(keyed(env, events)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(1000)))
                .reduce((a, b) -> new Event(a.key(), Math.max(a.time(), b.time()), a.value() + b.value()),
                        new ToResult()));
        Map<String, Long> expected = new TreeMap<>();
        for (Event e : events) {
            long start = Math.floorDiv(e.time(), 1000) * 1000;
            expected.merge(e.key() + "/" + start + "/" + (start + 1000), e.value(), Long::sum);
        }
        assertThat(asMap(results)).isEqualTo(expected);
    }

    @Test
    void slidingAggregateMatchesBruteForce() throws Exception {
        List<Event> events = randomEvents(10_000, 2);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<Result> results = collect(keyed(env, events)
                .window(SlidingEventTimeWindows.of(Duration.ofMillis(2000), Duration.ofMillis(500)))
                .aggregate(new Count(), new CountToResult()));
        Map<String, Long> expected = new TreeMap<>();
        for (Event e : events) {
            long lastStart = Math.floorDiv(e.time(), 500) * 500;
            for (long start = lastStart; start > e.time() - 2000; start -= 500) {
                expected.merge(e.key() + "/" + start + "/" + (start + 2000), 1L, Long::sum);
            }
        }
        assertThat(asMap(results)).isEqualTo(expected);
    }

    @Test
    void sessionProcessMatchesBruteForce() throws Exception {
        List<Event> events = randomEvents(5_000, 3);
        long gap = 150;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<Result> results = collect(keyed(env, events)
                .window(EventTimeSessionWindows.withGap(Duration.ofMillis(gap)))
                .process(new SumAll()));
        Map<Integer, List<Event>> byKey = new HashMap<>();
        events.forEach(e -> byKey.computeIfAbsent(e.key(), k -> new ArrayList<>()).add(e));
        Map<String, Long> expected = new TreeMap<>();
        byKey.forEach((key, list) -> {
            list.sort((a, b) -> Long.compare(a.time(), b.time()));
            long start = list.get(0).time();
            long end = start + gap;
            long sum = 0;
            for (Event e : list) {
                if (e.time() > end) {
                    expected.put(key + "/" + start + "/" + end, sum);
                    start = e.time();
                    sum = 0;
                }
                end = Math.max(end, e.time() + gap);
                sum += e.value();
            }
            expected.put(key + "/" + start + "/" + end, sum);
        });
        assertThat(asMap(results)).isEqualTo(expected);
    }

    private static Map<String, Long> asMap(List<Result> results) {
        Map<String, Long> map = new TreeMap<>();
        for (Result r : results) {
            Long previous = map.put(r.key() + "/" + r.start() + "/" + r.end(), r.value());
            assertThat(previous).as("each window fires once: " + r).isNull();
        }
        return map;
    }

    static final class ToResult extends ProcessWindowFunction<Event, Result, Integer, TimeWindow> {
        @Override
        public void process(Integer key, Context ctx, Iterable<Event> reduced, Collector<Result> out) {
            Event e = reduced.iterator().next();
            out.collect(new Result(key, ctx.window().getStart(), ctx.window().getEnd(), e.value()));
        }
    }

    static final class Count implements AggregateFunction<Event, Long, Long> {
        @Override
        public Long createAccumulator() {
            return 0L;
        }

        @Override
        public Long add(Event value, Long acc) {
            return acc + 1;
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

    static final class CountToResult extends ProcessWindowFunction<Long, Result, Integer, TimeWindow> {
        @Override
        public void process(Integer key, Context ctx, Iterable<Long> counts, Collector<Result> out) {
            out.collect(new Result(key, ctx.window().getStart(), ctx.window().getEnd(), counts.iterator().next()));
        }
    }

    static final class SumAll extends ProcessWindowFunction<Event, Result, Integer, TimeWindow> {
        @Override
        public void process(Integer key, Context ctx, Iterable<Event> events, Collector<Result> out) {
            long sum = 0;
            for (Event e : events) {
                sum += e.value();
            }
            out.collect(new Result(key, ctx.window().getStart(), ctx.window().getEnd(), sum));
        }
    }

    @SuppressWarnings("unused")
    private static Tuple2<Integer, Long> pair(int k, long v) {
        return Tuple2.of(k, v);
    }
}
