package dev.runnel.streaming.api.datastream;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.ProcessFunction;
import dev.runnel.streaming.api.functions.co.ProcessJoinFunction;
import dev.runnel.streaming.util.AbstractStreamOperatorTestHarness;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Interval joins as Flink's documentation writes them
 * ({@code orange.keyBy(...).intervalJoin(green.keyBy(...)).between(...).process(...)}), on the
 * embedded runtime, against a brute-force join of random, out-of-order input (fixed seeds). The
 * timestamps are dense, so many pairs lie exactly on a bound, and inclusivity shows.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class IntervalJoinEndToEndTest {

    /** An event: key, event time, value. */
    public record Event(int key, long time, int value) {}

    private static final long MAX_DELAY = 50;

    private static List<Event> randomEvents(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Event> events = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            events.add(new Event(random.nextInt(5), Math.max(0, i * 2L - random.nextLong(MAX_DELAY)), random.nextInt(1_000_000)));
        }
        return events;
    }

    private static KeyedStream<Event, Integer> keyed(StreamExecutionEnvironment env, List<Event> events) {
        return env.fromCollection(events)
                .assignTimestampsAndWatermarks(WatermarkStrategy.<Event>forBoundedOutOfOrderness(Duration.ofMillis(MAX_DELAY))
                        .withTimestampAssigner((e, ts) -> e.time()))
                .keyBy(Event::key, Types.INT);
    }

    /** The join's results with the timestamps they carry, counted. */
    private static Map<String, Integer> join(long lower, long upper,
            UnaryOperator<KeyedStream.IntervalJoined<Event, Event, Integer>> inclusivity, long seed, String stateBackend)
            throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setStateBackend(AbstractStreamOperatorTestHarness.configuredBackend(stateBackend));
        DataStream<String> joined = inclusivity.apply(keyed(env, randomEvents(3_000, seed)).intervalJoin(keyed(env, randomEvents(3_000, seed + 1)))
                .between(Duration.ofMillis(lower), Duration.ofMillis(upper)))
                .process(new ProcessJoinFunction<Event, Event, String>() {
                    @Override
                    public void processElement(Event left, Event right, Context ctx, Collector<String> out) {
                        out.collect(describe(left, right) + " ctx=" + ctx.getTimestamp());
                    }
                });
        Map<String, Integer> results = new TreeMap<>();
        joined.process(new ProcessFunction<String, String>() {
            @Override
            public void processElement(String value, Context ctx, Collector<String> out) {
                out.collect(value + " @" + ctx.timestamp());
            }
        }).executeAndCollect().forEachRemaining(r -> results.merge(r, 1, Integer::sum));
        return results;
    }

    private static String describe(Event left, Event right) {
        return left.key() + ":" + left.value() + "@" + left.time() + "+" + right.value() + "@" + right.time();
    }

    private static Map<String, Integer> bruteForce(long lower, long upper, boolean lowerInclusive, boolean upperInclusive,
            long seed) {
        List<Event> left = randomEvents(3_000, seed);
        List<Event> right = randomEvents(3_000, seed + 1);
        Map<String, Integer> expected = new TreeMap<>();
        for (Event l : left) {
            for (Event r : right) {
                long low = l.time() + lower;
                long high = l.time() + upper;
                boolean aboveLower = lowerInclusive ? r.time() >= low : r.time() > low;
                boolean belowUpper = upperInclusive ? r.time() <= high : r.time() < high;
                if (l.key() == r.key() && aboveLower && belowUpper) {
                    long timestamp = Math.max(l.time(), r.time());
                    expected.merge(describe(l, r) + " ctx=" + timestamp + " @" + timestamp, 1, Integer::sum);
                }
            }
        }
        return expected;
    }

    private static void check(long lower, long upper, boolean lowerInclusive, boolean upperInclusive, long seed) throws Exception {
        check(lower, upper, lowerInclusive, upperInclusive, seed, "heap");
    }

    private static void check(long lower, long upper, boolean lowerInclusive, boolean upperInclusive, long seed,
            String stateBackend) throws Exception {
        Map<String, Integer> expected = bruteForce(lower, upper, lowerInclusive, upperInclusive, seed);
        assertThat(expected).as("the input has pairs to join").hasSizeGreaterThan(100);
        Map<String, Integer> actual = join(lower, upper, j -> {
            KeyedStream.IntervalJoined<Event, Event, Integer> result = j;
            if (!lowerInclusive) {
                result = result.lowerBoundExclusive();
            }
            return upperInclusive ? result : result.upperBoundExclusive();
        }, seed, stateBackend);
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void inclusiveBoundsAroundTheLeftElement() throws Exception {
        check(-6, 8, true, true, 41);
    }

    @Test
    void exclusiveLowerBound() throws Exception {
        check(-6, 8, false, true, 43);
    }

    @Test
    void exclusiveUpperBound() throws Exception {
        check(-6, 8, true, false, 45);
    }

    @Test
    void bothBoundsExclusive() throws Exception {
        check(-6, 8, false, false, 47);
    }

    @Test
    void boundsEntirelyAfterTheLeftElement() throws Exception {
        check(3, 12, true, true, 49);
    }

    @Test
    void boundsEntirelyBeforeTheLeftElement() throws Exception {
        check(-12, -3, true, false, 51);
    }

    @Test
    void equalTimestampsOnly() throws Exception {
        check(0, 0, true, true, 53);
    }

    @Test
    void onTheRocksDbStore() throws Exception {
        check(-6, 8, false, true, 55, "rocksdb");
    }
}
