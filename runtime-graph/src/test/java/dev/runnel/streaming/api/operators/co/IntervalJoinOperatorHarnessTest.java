package dev.runnel.streaming.api.operators.co;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.datastream.KeyedStream;
import dev.runnel.streaming.api.datastream.SingleOutputStreamOperator;
import dev.runnel.streaming.api.datastream.UnsupportedTimeCharacteristicException;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.co.ProcessJoinFunction;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.api.transformations.PhysicalTransformation;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.streaming.util.KeyedTwoInputStreamOperatorTestHarness;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;
import java.time.Duration;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * The interval join operator, built with {@code left.intervalJoin(right).between(...)} and driven by
 * hand: bounds and their inclusivity, result timestamps, late elements, and buffer cleanup. Elements
 * are (key, name) pairs; results are "left name + right name".
 */
class IntervalJoinOperatorHarnessTest {

    private static final TypeInformation<Tuple2<String, String>> PAIR = Types.TUPLE(Types.STRING, Types.STRING);
    private static final OutputTag<Tuple2<String, String>> LEFT_LATE = new OutputTag<>("left-late", PAIR);
    private static final OutputTag<Tuple2<String, String>> RIGHT_LATE = new OutputTag<>("right-late", PAIR);

    private static Tuple2<String, String> e(String name) {
        return Tuple2.of("k", name);
    }

    @SuppressWarnings("unchecked")
    private static KeyedTwoInputStreamOperatorTestHarness<String, Tuple2<String, String>, Tuple2<String, String>, String> harness(
            Function<KeyedStream.IntervalJoin<Tuple2<String, String>, Tuple2<String, String>, String>,
                    KeyedStream.IntervalJoined<Tuple2<String, String>, Tuple2<String, String>, String>> bounds) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        KeyedStream<Tuple2<String, String>, String> left = env.fromElements(e("x")).returns(PAIR).keyBy(t -> t.f0);
        KeyedStream<Tuple2<String, String>, String> right = env.fromElements(e("y")).returns(PAIR).keyBy(t -> t.f0);
        SingleOutputStreamOperator<String> joined = bounds.apply(left.intervalJoin(right)).process(new Concat());
        var operator = (TwoInputStreamOperator<Tuple2<String, String>, Tuple2<String, String>, String>)
                ((PhysicalTransformation<?>) joined.getTransformation()).getOperator();
        var h = new KeyedTwoInputStreamOperatorTestHarness<String, Tuple2<String, String>, Tuple2<String, String>, String>(
                operator, t -> t.f0, t -> t.f0, Types.STRING);
        h.open();
        return h;
    }

    /** Right elements at 4, 5, 17, 18 around a left element at 10; bounds [-5, 7] with their inclusivity. */
    private static java.util.List<String> boundaries(
            Function<KeyedStream.IntervalJoined<Tuple2<String, String>, Tuple2<String, String>, String>,
                    KeyedStream.IntervalJoined<Tuple2<String, String>, Tuple2<String, String>, String>> inclusivity) throws Exception {
        try (var h = harness(j -> inclusivity.apply(j.between(Duration.ofMillis(-5), Duration.ofMillis(7))))) {
            h.processElement2(e("r4"), 4);
            h.processElement2(e("r5"), 5);
            h.processElement1(e("l10"), 10);
            h.processElement2(e("r17"), 17);
            h.processElement2(e("r18"), 18);
            return h.extractOutputValues();
        }
    }

    @Test
    void bothBoundsAreInclusiveByDefault() throws Exception {
        assertThat(boundaries(j -> j)).containsExactly("l10+r5", "l10+r17");
    }

    @Test
    void boundsCanBeMadeExclusive() throws Exception {
        assertThat(boundaries(j -> j.lowerBoundExclusive())).containsExactly("l10+r17");
        assertThat(boundaries(j -> j.upperBoundExclusive())).containsExactly("l10+r5");
        assertThat(boundaries(j -> j.lowerBoundExclusive().upperBoundExclusive())).isEmpty();
    }

    @Test
    void aPairCarriesTheLargerTimestampAndTheContextHasBoth() throws Exception {
        try (var h = harness(j -> j.between(Duration.ofMillis(-10), Duration.ofMillis(10)))) {
            h.processElement1(e("l5"), 5);
            h.processElement2(e("r12"), 12);
            h.processElement2(e("r1"), 1);
            assertThat(h.extractOutputValues()).containsExactly("l5+r12", "l5+r1");
            assertThat(h.extractOutputStreamRecords()).extracting(StreamRecord::getTimestamp).containsExactly(12L, 5L);
            assertThat(h.getSideOutput(Concat.TIMESTAMPS)).extracting(StreamRecord::getValue)
                    .containsExactly("left 5, right 12, pair 12", "left 5, right 1, pair 5");
            assertThat(h.getSideOutput(Concat.TIMESTAMPS)).extracting(StreamRecord::getTimestamp).containsExactly(12L, 5L);
        }
    }

    @Test
    void elementsBehindTheWatermarkAreLateAndGoToTheirSideOutputs() throws Exception {
        try (var h = harness(j -> j.between(Duration.ofMillis(-5), Duration.ofMillis(5))
                .sideOutputLeftLateData(LEFT_LATE).sideOutputRightLateData(RIGHT_LATE))) {
            h.processElement1(e("l20"), 20);
            h.processWatermark1(20);
            h.processWatermark2(18);          // event time is the minimum: 18
            h.processElement2(e("r17"), 17);  // late
            h.processElement2(e("r18"), 18);  // at the watermark: not late
            h.processWatermark2(30);          // event time 20
            h.processElement1(e("l19"), 19);  // late
            assertThat(h.extractOutputValues()).containsExactly("l20+r18");
            assertThat(h.getSideOutput(RIGHT_LATE)).extracting(r -> r.getValue().f1 + "@" + r.getTimestamp())
                    .containsExactly("r17@17");
            assertThat(h.getSideOutput(LEFT_LATE)).extracting(r -> r.getValue().f1 + "@" + r.getTimestamp())
                    .containsExactly("l19@19");
        }
    }

    @Test
    void withoutSideOutputsLateElementsAreDropped() throws Exception {
        try (var h = harness(j -> j.between(Duration.ofMillis(-5), Duration.ofMillis(5)))) {
            h.processBothWatermarks(20);
            h.processElement1(e("l19"), 19);
            h.processElement2(e("r20"), 20);
            assertThat(h.extractOutputValues()).isEmpty();
            assertThat(h.getSideOutput(LEFT_LATE)).as("no side output, as in Flink: null").isNull();
        }
    }

    @Test
    void anElementLeavesItsBufferWhenTheWatermarkPassesItsLastPossiblePartner() throws Exception {
        try (var h = harness(j -> j.between(Duration.ofMillis(-5), Duration.ofMillis(5)))) {
            h.processElement1(e("l10"), 10);  // can join right elements up to 15: cleaned up at watermark 15
            h.processElement2(e("r3"), 3);    // can join left elements up to 8: cleaned up at watermark 8
            h.processBothWatermarks(14);
            h.processElement2(e("r14"), 14);
            h.processBothWatermarks(15);
            // At the watermark (15), so not late, as in Flink; but its partner is already gone.
            h.processElement2(e("r15"), 15);
            h.processElement1(e("l16"), 16);
            assertThat(h.extractOutputValues()).containsExactlyInAnyOrder("l10+r14", "l16+r14", "l16+r15");
        }
    }

    @Test
    void positiveBoundsCleanUpLeftElementsAfterTheUpperBound() throws Exception {
        try (var h = harness(j -> j.between(Duration.ofMillis(2), Duration.ofMillis(4)))) {
            h.processElement1(e("l10"), 10);
            h.processBothWatermarks(13);
            h.processElement2(e("r13"), 13);
            h.processBothWatermarks(14);
            h.processElement2(e("r14"), 14);  // l10 is gone at watermark 14
            h.processElement1(e("l11"), 11);  // late
            assertThat(h.extractOutputValues()).containsExactly("l10+r13");
        }
    }

    @Test
    void elementsNeedTimestamps() throws Exception {
        try (var h = harness(j -> j.between(Duration.ofMillis(-1), Duration.ofMillis(1)))) {
            assertThatThrownBy(() -> h.processElement1(new StreamRecord<>(e("l"))))
                    .isInstanceOf(IllegalStateException.class).hasMessageContaining("timestamps");
        }
    }

    @Test
    void intervalJoinsAreEventTimeOnlyAndNeedOrderedBounds() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        KeyedStream<Tuple2<String, String>, String> left = env.fromElements(e("x")).returns(PAIR).keyBy(t -> t.f0);
        assertThatThrownBy(() -> left.intervalJoin(left).inProcessingTime().between(Duration.ZERO, Duration.ZERO))
                .isInstanceOf(UnsupportedTimeCharacteristicException.class);
        var reversed = left.intervalJoin(left).inEventTime().between(Duration.ofMillis(1), Duration.ofMillis(-1));
        assertThatThrownBy(() -> reversed.process(new Concat())).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("lowerBound <= upperBound");
    }

    /** "left name + right name"; the timestamps it saw go to a side output. */
    static final class Concat extends ProcessJoinFunction<Tuple2<String, String>, Tuple2<String, String>, String> {
        static final OutputTag<String> TIMESTAMPS = new OutputTag<>("timestamps", Types.STRING);

        @Override
        public void processElement(Tuple2<String, String> left, Tuple2<String, String> right, Context ctx, Collector<String> out) {
            out.collect(left.f1 + "+" + right.f1);
            ctx.output(TIMESTAMPS, "left " + ctx.getLeftTimestamp() + ", right " + ctx.getRightTimestamp()
                    + ", pair " + ctx.getTimestamp());
        }
    }
}
