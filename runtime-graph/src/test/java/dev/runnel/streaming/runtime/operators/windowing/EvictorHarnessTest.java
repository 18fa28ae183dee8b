package dev.runnel.streaming.runtime.operators.windowing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.functions.windowing.delta.DeltaFunction;
import dev.runnel.streaming.api.windowing.assigners.GlobalWindows;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.evictors.CountEvictor;
import dev.runnel.streaming.api.windowing.evictors.DeltaEvictor;
import dev.runnel.streaming.api.windowing.evictors.TimeEvictor;
import dev.runnel.streaming.api.windowing.triggers.CountTrigger;
import dev.runnel.streaming.runtime.operators.windowing.TriggerHarnessTest.Contents;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Evictors in an evicting window operator driven by hand: what the window function sees when they
 * evict before it, and what is left for the next firing when they evict after it.
 */
class EvictorHarnessTest {

    private static final DeltaFunction<Tuple2<String, Integer>> DISTANCE = (a, b) -> Math.abs(a.f1 - b.f1);

    private static Tuple2<String, Integer> a(int value) {
        return Tuple2.of("a", value);
    }

    @Test
    void countEvictorBeforeKeepsTheLastElements() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).trigger(CountTrigger.of(3))
                .evictor(CountEvictor.of(2)).process(new Contents<>()))) {
            for (int i = 1; i <= 6; i++) {
                h.processElement(a(i));
            }
            assertThat(h.extractOutputValues()).containsExactly("[2, 3]", "[5, 6]");
        }
    }

    @Test
    void countEvictorAfterEvictsOnceTheFunctionHasSeenEverything() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).trigger(CountTrigger.of(3))
                .evictor(CountEvictor.of(2, true)).process(new Contents<>()))) {
            for (int i = 1; i <= 6; i++) {
                h.processElement(a(i));
            }
            assertThat(h.extractOutputValues()).containsExactly("[1, 2, 3]", "[2, 3, 4, 5, 6]");
        }
    }

    @Test
    void timeEvictorKeepsWhatIsNewerThanTheLatestTimestampMinusTheSize() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).trigger(CountTrigger.of(4))
                .evictor(TimeEvictor.of(Duration.ofMillis(10))).process(new Contents<>()))) {
            h.processElement(a(1), 0);
            h.processElement(a(2), 10);  // exactly latest - size: evicted too
            h.processElement(a(3), 20);
            h.processElement(a(4), 11);  // out of order: the latest timestamp (20) counts, not the last element's
            assertThat(h.extractOutputValues()).containsExactly("[3, 4]");
        }
    }

    @Test
    void timeEvictorAfter() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).trigger(CountTrigger.of(2))
                .evictor(TimeEvictor.of(Duration.ofMillis(10), true)).process(new Contents<>()))) {
            h.processElement(a(1), 0);
            h.processElement(a(2), 15);
            h.processElement(a(3), 20);
            h.processElement(a(4), 26);
            assertThat(h.extractOutputValues()).containsExactly("[1, 2]", "[2, 3, 4]");
        }
    }

    @Test
    void timeEvictorLeavesElementsWithoutTimestampsAlone() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).trigger(CountTrigger.of(3))
                .evictor(TimeEvictor.of(Duration.ofMillis(1))).process(new Contents<>()))) {
            h.processElement(a(1));
            h.processElement(a(2));
            h.processElement(a(3));
            assertThat(h.extractOutputValues()).containsExactly("[1, 2, 3]");
        }
    }

    @Test
    void deltaEvictorRemovesWhatIsAtLeastTheThresholdAwayFromTheLastElement() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).trigger(CountTrigger.of(4))
                .evictor(DeltaEvictor.of(3.0, DISTANCE)).process(new Contents<>()))) {
            h.processElement(a(1));
            h.processElement(a(6));      // distance 3 to the last (9): evicted
            h.processElement(a(8));
            h.processElement(a(9));
            assertThat(h.extractOutputValues()).containsExactly("[8, 9]");
        }
    }

    @Test
    void deltaEvictorAfter() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).trigger(CountTrigger.of(2))
                .evictor(DeltaEvictor.of(3.0, DISTANCE, true)).process(new Contents<>()))) {
            h.processElement(a(1));
            h.processElement(a(5));
            h.processElement(a(6));
            h.processElement(a(7));
            assertThat(h.extractOutputValues()).containsExactly("[1, 5]", "[5, 6, 7]");
        }
    }

    @Test
    void aWindowEvictedEmptyIsStillEvaluated() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).trigger(CountTrigger.of(2))
                .evictor(DeltaEvictor.of(0.0, DISTANCE)).process(new Contents<>()))) {
            h.processElement(a(1));
            h.processElement(a(2));
            assertThat(h.extractOutputValues()).containsExactly("[]");
        }
    }

    @Test
    void slidingCountWindowsReduceOverTheKeptElements() throws Exception {
        try (var h = WindowHarness.open(k -> k.countWindow(3, 2).sum(1))) {
            for (int i = 1; i <= 7; i++) {
                h.processElement(a(i));
            }
            // every 2 elements, the sum of the last (up to) 3
            assertThat(h.extractOutputValues()).containsExactly(a(1 + 2), a(2 + 3 + 4), a(4 + 5 + 6));
        }
    }

    @Test
    void evictingEventTimeWindowsAggregateAndRefireForLateElements() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .allowedLateness(Duration.ofMillis(10)).evictor(CountEvictor.of(2))
                .aggregate(new Average()))) {
            h.processElement(a(1), 1);
            h.processElement(a(3), 2);
            h.processElement(a(5), 3);
            h.processWatermark(9);
            h.processElement(a(7), 4);   // late but allowed: fires again over the last two kept
            h.processWatermark(19);      // cleanup: the window is gone
            h.processElement(a(100), 5);
            assertThat(h.extractOutputValues()).containsExactly(4.0, 6.0);
        }
    }

    /** The average of the values. */
    static final class Average implements dev.runnel.api.common.functions.AggregateFunction<Tuple2<String, Integer>, long[], Double> {
        @Override
        public long[] createAccumulator() {
            return new long[2];
        }

        @Override
        public long[] add(Tuple2<String, Integer> value, long[] acc) {
            acc[0] += value.f1;
            acc[1]++;
            return acc;
        }

        @Override
        public Double getResult(long[] acc) {
            return (double) acc[0] / acc[1];
        }

        @Override
        public long[] merge(long[] a, long[] b) {
            return new long[] {a[0] + b[0], a[1] + b[1]};
        }
    }
}
