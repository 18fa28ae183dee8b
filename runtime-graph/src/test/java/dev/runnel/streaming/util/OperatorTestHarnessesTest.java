package dev.runnel.streaming.util;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.functions.FlatMapFunction;
import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.ProcessFunction;
import dev.runnel.streaming.api.functions.co.CoProcessFunction;
import dev.runnel.streaming.api.functions.co.KeyedCoProcessFunction;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.StreamFlatMap;
import dev.runnel.streaming.api.operators.StreamMap;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.api.watermark.Watermark;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.junit.jupiter.api.Test;

/** The harness API as Flink's operator tests use it: exact outputs, timer and state counts, side outputs. */
class OperatorTestHarnessesTest {

    private static final OutputTag<String> ODD = new OutputTag<>("odd", Types.STRING);

    /** Sums per key; registers an event-time timer at ts+10 and a processing-time timer at 100. */
    static final class SumWithTimers extends KeyedProcessFunction<String, String, String> {
        private transient ValueState<Integer> sum;

        @Override
        public void open(OpenContext ctx) {
            sum = getRuntimeContext().getState(new ValueStateDescriptor<>("sum", Types.INT));
        }

        @Override
        public void processElement(String value, Context ctx, Collector<String> out) throws Exception {
            int n = Integer.parseInt(value.substring(2));
            int total = (sum.value() == null ? 0 : sum.value()) + n;
            sum.update(total);
            ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 10);
            ctx.timerService().registerProcessingTimeTimer(100);
            if (n % 2 == 1) {
                ctx.output(ODD, value);
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> out) throws Exception {
            out.collect(ctx.getCurrentKey() + "=" + sum.value() + "@" + timestamp + "/" + ctx.timeDomain());
        }
    }

    @Test
    void statelessMapOutputsRecordsAndWatermarksInOrder() throws Exception {
        MapFunction<Integer, Integer> twice = x -> 2 * x;
        var harness = new OneInputStreamOperatorTestHarness<>(new StreamMap<>(twice));
        harness.setup();
        harness.open();
        harness.processElement(1, 10);
        harness.processWatermark(new Watermark(10));
        harness.processElement(new StreamRecord<>(3));
        harness.processWatermark(20);

        ConcurrentLinkedQueue<Object> expected = new ConcurrentLinkedQueue<>();
        expected.add(new StreamRecord<>(2, 10));
        expected.add(new Watermark(10));
        expected.add(new StreamRecord<>(6));
        expected.add(new Watermark(20));
        TestHarnessUtil.assertOutputEquals("map output", expected, harness.getOutput());
        assertThat(harness.getOutput()).containsExactlyElementsOf(expected);
        assertThat(harness.extractOutputValues()).containsExactly(2, 6);
        assertThat(harness.extractOutputStreamRecords()).containsExactly(new StreamRecord<>(2, 10), new StreamRecord<>(6));
        assertThat(harness.numEventTimeTimers()).isZero();
        harness.close();
    }

    @Test
    void flatMapWithFlinkStyleSetupAndAssertOutputEqualsReportsAMismatch() throws Exception {
        FlatMapFunction<String, String> split = (line, out) -> {
            for (String w : line.split(" ")) {
                out.collect(w);
            }
        };
        var harness = new OneInputStreamOperatorTestHarness<>(new StreamFlatMap<>(split));
        harness.getExecutionConfig().setAutoWatermarkInterval(50);
        harness.open();
        harness.processElement("a b", 5);
        assertThat(harness.extractOutputValues()).containsExactly("a", "b");

        ConcurrentLinkedQueue<Object> wrong = new ConcurrentLinkedQueue<>(List.of(new StreamRecord<>("a", 5)));
        assertThatThrownBy(() -> TestHarnessUtil.assertOutputEquals("words", wrong, harness.getOutput()))
                .isInstanceOf(AssertionError.class)
                .hasMessage("words: expected [Record @ 5 : a] but was [Record @ 5 : a, Record @ 5 : b]");
        harness.close();
    }

    @Test
    void keyedProcessFunctionCountsStateAndTimersAndFiresThem() throws Exception {
        var harness = ProcessFunctionTestHarnesses.forKeyedProcessFunction(
                new SumWithTimers(), v -> v.substring(0, 1), Types.STRING);
        harness.processElement("a:1", 1);
        harness.processElement("a:2", 2);
        harness.processElement("b:4", 5);

        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
        assertThat(harness.numEventTimeTimers()).isEqualTo(3);     // a@11, a@12, b@15
        assertThat(harness.numProcessingTimeTimers()).isEqualTo(2); // a@100, b@100

        harness.processWatermark(12);
        assertThat(harness.extractOutputValues()).containsExactly("a=3@11/EVENT_TIME", "a=3@12/EVENT_TIME");
        assertThat(harness.numEventTimeTimers()).isEqualTo(1);

        harness.setProcessingTime(100);
        assertThat(harness.numProcessingTimeTimers()).isZero();
        assertThat(harness.getOutput()).containsExactly(
                new StreamRecord<>("a=3@11/EVENT_TIME", 11), new StreamRecord<>("a=3@12/EVENT_TIME", 12),
                new Watermark(12),
                new StreamRecord<>("a=3@100/PROCESSING_TIME"), new StreamRecord<>("b=4@100/PROCESSING_TIME"));
        assertThat(harness.getSideOutput(ODD)).containsExactly(new StreamRecord<>("a:1", 1));
        assertThat(harness.getSideOutput(new OutputTag<>("none", Types.STRING))).isNull();
        harness.close();
    }

    @Test
    void processFunctionHarnessHasNoKeyedState() throws Exception {
        ProcessFunction<String, Integer> length = new ProcessFunction<>() {
            @Override
            public void processElement(String value, Context ctx, Collector<Integer> out) {
                out.collect(value.length());
            }
        };
        var harness = ProcessFunctionTestHarnesses.forProcessFunction(length);
        harness.processElement("abc", 7);
        assertThat(harness.extractOutputStreamRecords()).containsExactly(new StreamRecord<>(3, 7));
        assertThat(harness.numProcessingTimeTimers()).isZero();
        assertThatThrownBy(harness::numKeyedStateEntries)
                .isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("has no keyed state");
        harness.close();
    }

    @Test
    void coProcessFunctionTakesTheMinimumWatermarkOfBothInputs() throws Exception {
        CoProcessFunction<String, Integer, String> both = new CoProcessFunction<>() {
            @Override
            public void processElement1(String value, Context ctx, Collector<String> out) {
                out.collect("1:" + value);
            }

            @Override
            public void processElement2(Integer value, Context ctx, Collector<String> out) {
                out.collect("2:" + value);
            }
        };
        var harness = ProcessFunctionTestHarnesses.forCoProcessFunction(both);
        harness.processElement1("x", 1);
        harness.processElement2(new StreamRecord<>(5, 2));
        harness.processWatermark1(new Watermark(10));
        harness.processWatermark2(new Watermark(7));
        harness.processWatermark2(new Watermark(15));
        assertThat(harness.getOutput()).containsExactly(
                new StreamRecord<>("1:x", 1), new StreamRecord<>("2:5", 2), new Watermark(7), new Watermark(10));
        harness.close();
    }

    @Test
    void keyedCoProcessFunctionJoinsByKey() throws Exception {
        KeyedCoProcessFunction<String, String, String, String> join = new KeyedCoProcessFunction<>() {
            private transient ValueState<String> left;

            @Override
            public void open(OpenContext ctx) {
                left = getRuntimeContext().getState(new ValueStateDescriptor<>("left", Types.STRING));
            }

            @Override
            public void processElement1(String value, Context ctx, Collector<String> out) throws Exception {
                left.update(value);
                ctx.timerService().registerEventTimeTimer(100);
            }

            @Override
            public void processElement2(String value, Context ctx, Collector<String> out) throws Exception {
                out.collect(left.value() + "+" + value);
            }
        };
        var harness = ProcessFunctionTestHarnesses.forKeyedCoProcessFunction(
                join, v -> v.substring(0, 1), v -> v.substring(0, 1), Types.STRING);
        harness.processElement1("a-left", 1);
        harness.processElement1("b-left", 1);
        harness.processElement2("a-right", 2);
        assertThat(harness.extractOutputValues()).containsExactly("a-left+a-right");
        assertThat(harness.numKeyedStateEntries()).isEqualTo(2);
        assertThat(harness.numEventTimeTimers()).isEqualTo(2);
        harness.close();
    }

    /** Emits what input 1 brings from a mail, as an operator that completes work later does; input 2 at once. */
    static final class EmitsInput1FromAMail extends AbstractStreamOperator<String>
            implements TwoInputStreamOperator<String, String, String> {
        private static final long serialVersionUID = 1L;

        @Override
        public void processElement1(StreamRecord<String> element) {
            StreamRecord<String> later = element.copy("mail:" + element.getValue());
            task.execute(() -> output.collect(later), "emit " + later);
        }

        @Override
        public void processElement2(StreamRecord<String> element) {
            output.collect(element);
        }
    }

    @Test
    void twoInputHarnessRunsTheMailsOfEachCallBeforeItReturns() throws Exception {
        var harness = new TwoInputStreamOperatorTestHarness<>(new EmitsInput1FromAMail());
        harness.open();
        harness.processElement1("a", 1);
        assertThat(harness.getOutput()).containsExactly(new StreamRecord<>("mail:a", 1));
        harness.processElement2("b", 2);
        harness.processElement1("c", 3);
        assertThat(harness.extractOutputValues()).containsExactly("mail:a", "b", "mail:c");
        harness.close();
    }

    @Test
    void streamRecordEqualityUsesValueAndTimestamp() {
        assertThat(new StreamRecord<>("a", 1)).isEqualTo(new StreamRecord<>("a", 1))
                .hasSameHashCodeAs(new StreamRecord<>("a", 1))
                .isNotEqualTo(new StreamRecord<>("a", 2))
                .isNotEqualTo(new StreamRecord<>("a"));
        assertThat(new Watermark(3)).isEqualTo(new Watermark(3)).isNotEqualTo(new Watermark(4));
    }
}
