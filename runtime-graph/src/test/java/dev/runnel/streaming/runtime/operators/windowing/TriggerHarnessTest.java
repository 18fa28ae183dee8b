package dev.runnel.streaming.runtime.operators.windowing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.functions.windowing.ProcessWindowFunction;
import dev.runnel.streaming.api.windowing.assigners.GlobalWindows;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.assigners.TumblingProcessingTimeWindows;
import dev.runnel.streaming.api.windowing.triggers.ContinuousEventTimeTrigger;
import dev.runnel.streaming.api.windowing.triggers.ContinuousProcessingTimeTrigger;
import dev.runnel.streaming.api.windowing.triggers.CountTrigger;
import dev.runnel.streaming.api.windowing.triggers.DeltaTrigger;
import dev.runnel.streaming.api.windowing.triggers.ProcessingTimeoutTrigger;
import dev.runnel.streaming.api.windowing.triggers.PurgingTrigger;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.Collector;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Each built-in trigger in a window operator driven by hand: when it fires, whether it purges, and
 * what the window function sees. The window sums the values of a key ({@code sum(1)}).
 */
class TriggerHarnessTest {

    private static Tuple2<String, Integer> a(int value) {
        return Tuple2.of("a", value);
    }

    @Test
    void countWindowFiresEveryNElementsOfAKeyAndPurges() throws Exception {
        try (var h = WindowHarness.open(k -> k.countWindow(3).sum(1))) {
            for (int i = 1; i <= 7; i++) {
                h.processElement(a(i));
                h.processElement(Tuple2.of("b", 10 * i));
            }
            assertThat(h.extractOutputValues()).containsExactly(
                    a(6), Tuple2.of("b", 60), a(15), Tuple2.of("b", 150));
        }
    }

    @Test
    void countTriggerWithoutPurgingFiresTheWholeWindowAgain() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).trigger(CountTrigger.of(2)).sum(1))) {
            for (int i = 1; i <= 5; i++) {
                h.processElement(a(i));
            }
            assertThat(h.extractOutputValues()).containsExactly(a(3), a(10));
            assertThat(h.extractOutputStreamRecords()).extracting(StreamRecord::getTimestamp)
                    .as("a global window's max timestamp").containsOnly(Long.MAX_VALUE);
        }
    }

    @Test
    void globalWindowsNeverFireByDefault() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create()).sum(1))) {
            h.processElement(a(1), 5);
            h.processWatermark(Long.MAX_VALUE);
            h.setProcessingTime(Long.MAX_VALUE / 2);
            assertThat(h.extractOutputValues()).isEmpty();
        }
    }

    @Test
    void endOfStreamTriggerFiresOnceWhenEventTimeEnds() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.createWithEndOfStreamTrigger()).sum(1))) {
            h.processElement(a(1), 5);
            h.processElement(Tuple2.of("b", 7), 6);
            h.processElement(a(2), 9);
            h.processWatermark(1_000_000);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processWatermark(Long.MAX_VALUE);
            assertThat(h.extractOutputValues()).containsExactlyInAnyOrder(a(3), Tuple2.of("b", 7));
        }
    }

    @Test
    void continuousEventTimeTriggerFiresEveryIntervalAndAtTheWindowEnd() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .trigger(ContinuousEventTimeTrigger.of(Duration.ofMillis(3))).sum(1))) {
            h.processElement(a(1), 1);   // first periodic firing at 3 (aligned to the interval)
            h.processWatermark(2);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processWatermark(3);
            h.processElement(a(2), 5);
            h.processWatermark(6);
            h.processElement(a(4), 7);
            h.processWatermark(8);
            assertThat(h.extractOutputValues()).containsExactly(a(1), a(3));
            h.processWatermark(9);       // the window's end: fires once more, then the window is gone
            h.processWatermark(20);
            assertThat(h.extractOutputValues()).containsExactly(a(1), a(3), a(7));
            assertThat(h.extractOutputStreamRecords()).extracting(StreamRecord::getTimestamp).containsOnly(9L);
        }
    }

    @Test
    void purgingContinuousEventTimeTriggerEmitsIncrementsAndSkipsEmptyFirings() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .trigger(PurgingTrigger.of(ContinuousEventTimeTrigger.of(Duration.ofMillis(3)))).process(new Contents<>()))) {
            h.processElement(a(1), 1);
            h.processElement(a(2), 2);
            h.processWatermark(3);
            h.processWatermark(6);       // nothing arrived since the last firing: no evaluation
            h.processElement(a(4), 7);
            h.processWatermark(9);
            assertThat(h.extractOutputValues()).containsExactly("[1, 2]", "[4]");
        }
    }

    @Test
    void continuousProcessingTimeTriggerFiresOnTheClockUntilTheWindowEnds() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(TumblingProcessingTimeWindows.of(Duration.ofMillis(100)))
                .trigger(ContinuousProcessingTimeTrigger.of(Duration.ofMillis(30))).sum(1))) {
            h.setProcessingTime(10);
            h.processElement(a(1));
            h.setProcessingTime(29);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(30);
            h.setProcessingTime(40);
            h.processElement(a(2));
            h.setProcessingTime(60);
            h.setProcessingTime(90);
            h.setProcessingTime(99);    // the last firing is capped at the window's max timestamp
            h.setProcessingTime(500);
            assertThat(h.extractOutputValues()).containsExactly(a(1), a(3), a(3), a(3));
            assertThat(h.getProcessingTimeService().pendingTimers()).as("no timers left behind").isZero();
        }
    }

    @Test
    void continuousProcessingTimeTriggerOnGlobalWindowsFiresForever() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create())
                .trigger(PurgingTrigger.of(ContinuousProcessingTimeTrigger.of(Duration.ofMillis(50)))).sum(1))) {
            h.processElement(a(1));
            h.processElement(a(2));
            h.setProcessingTime(50);
            h.processElement(a(3));
            h.setProcessingTime(100);
            h.setProcessingTime(150);   // purged and nothing new: not evaluated
            h.processElement(a(4));
            h.setProcessingTime(200);
            assertThat(h.extractOutputValues()).containsExactly(a(3), a(3), a(4));
        }
    }

    @Test
    void deltaTriggerFiresWhenAnElementIsFarFromTheLastFiringOne() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create())
                .trigger(DeltaTrigger.of(5.0, (Tuple2<String, Integer> old, Tuple2<String, Integer> now) -> now.f1 - old.f1,
                        WindowHarness.PAIR.createSerializer(k.getExecutionEnvironment().getConfig().getSerializerConfig())))
                .sum(1))) {
            h.processElement(a(1));      // the reference
            h.processElement(a(3));
            h.processElement(a(6));      // delta 5: not more than the threshold
            h.processElement(a(7));      // delta 6: fires, 7 becomes the reference
            h.processElement(a(10));
            h.processElement(a(13));     // delta 6: fires
            assertThat(h.extractOutputValues()).containsExactly(a(17), a(40));
        }
    }

    @Test
    void processingTimeoutTriggerFiresOnTheNestedTriggerOrOnTheTimeout() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create())
                .trigger(PurgingTrigger.of(ProcessingTimeoutTrigger.of(CountTrigger.of(3), Duration.ofMillis(100))))
                .process(new Contents<>()))) {
            h.processElement(a(1));      // at 0: the timeout is 100
            h.setProcessingTime(50);
            h.processElement(a(2));
            h.setProcessingTime(100);    // timed out with two elements
            h.setProcessingTime(120);
            h.processElement(a(3));      // a new timeout at 220
            h.processElement(a(4));
            h.processElement(a(5));      // the count trigger fires first; its timeout is deleted
            h.setProcessingTime(400);
            assertThat(h.extractOutputValues()).containsExactly("[1, 2]", "[3, 4, 5]");
            assertThat(h.getProcessingTimeService().pendingTimers()).isZero();
        }
    }

    @Test
    void processingTimeoutTriggerCanRestartTheTimeoutOnEachElement() throws Exception {
        try (var h = WindowHarness.open(k -> k.window(GlobalWindows.create())
                .trigger(PurgingTrigger.of(ProcessingTimeoutTrigger.of(CountTrigger.of(10), Duration.ofMillis(100), true, true)))
                .process(new Contents<>()))) {
            h.processElement(a(1));
            h.setProcessingTime(90);
            h.processElement(a(2));      // restarts the timeout: 190
            h.setProcessingTime(189);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(190);
            assertThat(h.extractOutputValues()).containsExactly("[1, 2]");
        }
    }

    /** Emits the values of a window as a list, in the order the window holds them. */
    static final class Contents<W extends Window> extends ProcessWindowFunction<Tuple2<String, Integer>, String, String, W> {
        @Override
        public void process(String key, Context ctx, Iterable<Tuple2<String, Integer>> elements, Collector<String> out) {
            List<Integer> values = new ArrayList<>();
            elements.forEach(e -> values.add(e.f1));
            out.collect(values.toString());
        }
    }
}
