package dev.runnel.streaming.runtime.operators.windowing;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.datastream.KeyedStream;
import dev.runnel.streaming.api.datastream.SingleOutputStreamOperator;
import dev.runnel.streaming.api.windowing.assigners.EventTimeSessionWindows;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.assigners.TumblingProcessingTimeWindows;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import dev.runnel.util.OutputTag;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/** The window operator driven by hand: lateness, late data, sessions, processing time. */
class WindowOperatorHarnessTest {

    static final OutputTag<Tuple2<String, Integer>> LATE = new OutputTag<>("late", Types.TUPLE(Types.STRING, Types.INT));

    private static KeyedOneInputStreamOperatorTestHarness<String, Tuple2<String, Integer>, Tuple2<String, Integer>> harness(
            Function<KeyedStream<Tuple2<String, Integer>, String>, SingleOutputStreamOperator<Tuple2<String, Integer>>> windowing)
            throws Exception {
        return WindowHarness.open(windowing);
    }

    @Test
    void allowedLatenessRefiresAndTooLateDataGoesToTheSideOutput() throws Exception {
        try (var h = harness(k -> k.window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .allowedLateness(Duration.ofMillis(5)).sideOutputLateData(LATE)
                .reduce((a, b) -> Tuple2.of(a.f0, a.f1 + b.f1)))) {
            h.processElement(Tuple2.of("a", 1), 1);
            h.processElement(Tuple2.of("a", 2), 9);
            h.processWatermark(9);
            assertThat(h.extractOutputValues()).containsExactly(Tuple2.of("a", 3));
            assertThat(h.extractOutputStreamRecords().get(0).getTimestamp()).as("the window's max timestamp").isEqualTo(9);
            // late, but within the allowed lateness: the window fires again with the update
            h.processElement(Tuple2.of("a", 10), 5);
            assertThat(h.extractOutputValues()).containsExactly(Tuple2.of("a", 3), Tuple2.of("a", 13));
            // past the cleanup time (9 + 5): dropped from the window, sent to the side output
            h.processWatermark(14);
            h.processElement(Tuple2.of("a", 100), 3);
            assertThat(h.extractOutputValues()).hasSize(2);
            assertThat(h.getSideOutput(LATE)).extracting(StreamRecord::getValue).containsExactly(Tuple2.of("a", 100));
        }
    }

    @Test
    void withoutASideOutputTooLateRecordsAreCountedAsDropped() throws Exception {
        try (var h = harness(k -> k.window(TumblingEventTimeWindows.of(Duration.ofMillis(10)))
                .reduce((a, b) -> Tuple2.of(a.f0, a.f1 + b.f1)))) {
            h.processWatermark(100);
            h.processElement(Tuple2.of("a", 1), 5);
            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(h.getMetricGroup().getAllMetrics()).anySatisfy((name, metric) -> {
                assertThat(name).endsWith("numLateRecordsDropped");
                assertThat(((dev.runnel.metrics.Counter) metric).getCount()).isEqualTo(1);
            });
        }
    }

    @Test
    void sessionsMergeAndFireOnce() throws Exception {
        try (var h = harness(k -> k.window(EventTimeSessionWindows.withGap(Duration.ofMillis(10)))
                .reduce((a, b) -> Tuple2.of(a.f0, a.f1 + b.f1)))) {
            h.processElement(Tuple2.of("a", 1), 0);
            h.processElement(Tuple2.of("a", 2), 30);
            h.processElement(Tuple2.of("a", 4), 15); // bridges [0,10) and [30,40)? no: [15,25) touches neither
            h.processElement(Tuple2.of("a", 8), 8);  // [8,18) merges [0,10) and [15,25)
            h.processWatermark(100);
            assertThat(h.extractOutputValues()).containsExactlyInAnyOrder(Tuple2.of("a", 13), Tuple2.of("a", 2));
            assertThat(h.extractOutputStreamRecords()).extracting(StreamRecord::getTimestamp)
                    .containsExactlyInAnyOrder(24L, 39L);
        }
    }

    @Test
    void processingTimeWindowsFireOnTheClock() throws Exception {
        try (var h = harness(k -> k.window(TumblingProcessingTimeWindows.of(Duration.ofMillis(100)))
                .reduce((a, b) -> Tuple2.of(a.f0, a.f1 + b.f1)))) {
            h.setProcessingTime(10);
            h.processElement(Tuple2.of("a", 1));
            h.processElement(Tuple2.of("b", 5));
            h.setProcessingTime(50);
            h.processElement(Tuple2.of("a", 2));
            h.setProcessingTime(98);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(99); // the window [0, 100) ends at its max timestamp 99, as in Flink
            assertThat(h.extractOutputValues()).containsExactlyInAnyOrder(Tuple2.of("a", 3), Tuple2.of("b", 5));
        }
    }
}
