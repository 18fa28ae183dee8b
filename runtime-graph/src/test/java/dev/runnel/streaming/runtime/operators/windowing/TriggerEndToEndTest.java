package dev.runnel.streaming.runtime.operators.windowing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.eventtime.WatermarkGenerator;
import dev.runnel.api.common.eventtime.WatermarkOutput;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.datastream.KeyedStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.windowing.ProcessWindowFunction;
import dev.runnel.streaming.api.windowing.assigners.GlobalWindows;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.triggers.ContinuousEventTimeTrigger;
import dev.runnel.streaming.api.windowing.triggers.DeltaTrigger;
import dev.runnel.streaming.api.windowing.triggers.PurgingTrigger;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Triggers in jobs on the embedded runtime, against brute-force simulations of Flink's trigger
 * semantics. The source stamps a watermark after every event (at its timestamp), so when each timer
 * fires relative to the elements is deterministic.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TriggerEndToEndTest {

    /** An event: key, event time (ascending), value. */
    public record Event(int key, long time, long value) {}

    private static final long SIZE = 1000;
    private static final long INTERVAL = 300;

    private static List<Event> events(int n, long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Event> events = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            events.add(new Event(random.nextInt(10), i * 3L, random.nextInt(100)));
        }
        return events;
    }

    private static KeyedStream<Event, Integer> keyed(List<Event> events) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        return env.fromCollection(events).assignTimestampsAndWatermarks(WatermarkStrategy.<Event>forGenerator(
                ctx -> new WatermarkAfterEachEvent()).withTimestampAssigner((e, ts) -> e.time())).keyBy(Event::key, Types.INT);
    }

    private static Map<String, Integer> run(DataStream<String> results) throws Exception {
        Map<String, Integer> counted = new TreeMap<>();
        results.executeAndCollect().forEachRemaining(r -> counted.merge(r, 1, Integer::sum));
        return counted;
    }

    /** The firing times of one key's window: the aligned periodic ones after its first element, and its end. */
    private static TreeSet<Long> firingTimes(long firstElement, long windowStart) {
        long maxTimestamp = windowStart + SIZE - 1;
        TreeSet<Long> times = new TreeSet<>();
        for (long t = firstElement - firstElement % INTERVAL + INTERVAL; t < maxTimestamp; t += INTERVAL) {
            times.add(t);
        }
        times.add(maxTimestamp);
        return times;
    }

    /** For each key and window, its events in order. */
    private static Map<String, List<Event>> windows(List<Event> events) {
        Map<String, List<Event>> windows = new TreeMap<>();
        events.forEach(e -> windows.computeIfAbsent(e.key() + "/" + (e.time() - e.time() % SIZE), k -> new ArrayList<>()).add(e));
        return windows;
    }

    @Test
    void continuousEventTimeTriggerEmitsTheWindowSoFarAtEveryInterval() throws Exception {
        List<Event> events = events(5_000, 61);
        Map<String, Integer> actual = run(keyed(events).window(TumblingEventTimeWindows.of(Duration.ofMillis(SIZE)))
                .trigger(ContinuousEventTimeTrigger.of(Duration.ofMillis(INTERVAL))).process(new SumAndCount<>()));
        Map<String, Integer> expected = new TreeMap<>();
        windows(events).forEach((window, elements) -> {
            for (long fire : firingTimes(elements.get(0).time(), elements.get(0).time() - elements.get(0).time() % SIZE)) {
                expected.merge(summary(window, elements.stream().filter(e -> e.time() <= fire).toList()), 1, Integer::sum);
            }
        });
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void purgingContinuousEventTimeTriggerEmitsWhatArrivedSinceTheLastFiring() throws Exception {
        List<Event> events = events(5_000, 62);
        Map<String, Integer> actual = run(keyed(events).window(TumblingEventTimeWindows.of(Duration.ofMillis(SIZE)))
                .trigger(PurgingTrigger.of(ContinuousEventTimeTrigger.of(Duration.ofMillis(INTERVAL)))).process(new SumAndCount<>()));
        Map<String, Integer> expected = new TreeMap<>();
        windows(events).forEach((window, elements) -> {
            long previous = Long.MIN_VALUE;
            for (long fire : firingTimes(elements.get(0).time(), elements.get(0).time() - elements.get(0).time() % SIZE)) {
                long from = previous;
                List<Event> increment = elements.stream().filter(e -> e.time() > from && e.time() <= fire).toList();
                if (!increment.isEmpty()) {   // an empty window is not evaluated
                    expected.merge(summary(window, increment), 1, Integer::sum);
                }
                previous = fire;
            }
        });
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void purgingDeltaTriggerSplitsEachKeyWhereTheValueJumps() throws Exception {
        List<Event> events = events(3_000, 63);
        Map<String, Integer> actual = run(keyed(events).window(GlobalWindows.create())
                .trigger(PurgingTrigger.of(DeltaTrigger.of(60.0, (Event a, Event b) -> Math.abs(a.value() - b.value()),
                        TypeInformation.of(Event.class).createSerializer(new SerializerConfig()))))
                .process(new SumAndCount<>()));
        Map<String, Integer> expected = new TreeMap<>();
        Map<Integer, List<Event>> pending = new HashMap<>();
        Map<Integer, Event> reference = new HashMap<>();
        for (Event e : events) {
            List<Event> window = pending.computeIfAbsent(e.key(), k -> new ArrayList<>());
            window.add(e);
            Event last = reference.putIfAbsent(e.key(), e);
            if (last != null && Math.abs(last.value() - e.value()) > 60.0) {
                reference.put(e.key(), e);
                expected.merge(summary(e.key() + "/global", window), 1, Integer::sum);
                window.clear();
            }
        }
        assertThat(actual).isEqualTo(expected);
    }

    private static String summary(String window, List<Event> elements) {
        return window.substring(0, window.indexOf('/')) + " sum " + elements.stream().mapToLong(Event::value).sum()
                + " of " + elements.size();
    }

    /** "key sum S of N" of the window's elements. */
    static final class SumAndCount<W extends Window> extends ProcessWindowFunction<Event, String, Integer, W> {
        @Override
        public void process(Integer key, Context ctx, Iterable<Event> elements, Collector<String> out) {
            long sum = 0;
            int count = 0;
            for (Event e : elements) {
                sum += e.value();
                count++;
            }
            out.collect(key + " sum " + sum + " of " + count);
        }
    }

    /** A watermark at every event's timestamp, right after the event. */
    static final class WatermarkAfterEachEvent implements WatermarkGenerator<Event> {
        @Override
        public void onEvent(Event event, long eventTimestamp, WatermarkOutput output) {
            output.emitWatermark(new Watermark(eventTimestamp));
        }

        @Override
        public void onPeriodicEmit(WatermarkOutput output) {}
    }
}
