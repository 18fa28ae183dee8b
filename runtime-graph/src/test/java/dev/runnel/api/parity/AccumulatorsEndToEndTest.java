package dev.runnel.api.parity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.accumulators.AverageAccumulator;
import dev.runnel.api.common.accumulators.DoubleMaximum;
import dev.runnel.api.common.accumulators.DoubleMinimum;
import dev.runnel.api.common.accumulators.IntMaximum;
import dev.runnel.api.common.accumulators.IntMinimum;
import dev.runnel.api.common.accumulators.ListAccumulator;
import dev.runnel.api.common.accumulators.LongMaximum;
import dev.runnel.api.common.accumulators.LongMinimum;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.functions.RichMapFunction;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.v2.DiscardingSink;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Every accumulator type, registered in three parallel subtasks, merged into the job's result. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AccumulatorsEndToEndTest {

    /** Registers one accumulator of each type in open() and feeds it every record, as Flink's docs show. */
    static final class Measure extends RichMapFunction<Long, Long> {
        private final ListAccumulator<Long> seen = new ListAccumulator<>();
        private final IntMaximum intMax = new IntMaximum();
        private final IntMinimum intMin = new IntMinimum();
        private final LongMaximum longMax = new LongMaximum();
        private final LongMinimum longMin = new LongMinimum();
        private final DoubleMaximum doubleMax = new DoubleMaximum();
        private final DoubleMinimum doubleMin = new DoubleMinimum();
        private final AverageAccumulator average = new AverageAccumulator();

        @Override
        public void open(OpenContext openContext) {
            getRuntimeContext().addAccumulator("seen", seen);
            getRuntimeContext().addAccumulator("int-max", intMax);
            getRuntimeContext().addAccumulator("int-min", intMin);
            getRuntimeContext().addAccumulator("long-max", longMax);
            getRuntimeContext().addAccumulator("long-min", longMin);
            getRuntimeContext().addAccumulator("double-max", doubleMax);
            getRuntimeContext().addAccumulator("double-min", doubleMin);
            getRuntimeContext().addAccumulator("average", average);
        }

        @Override
        public Long map(Long value) {
            seen.add(value);
            intMax.add(value.intValue());
            intMin.add(value.intValue());
            longMax.add(value * 1_000_000_000L);
            longMin.add(-value);
            doubleMax.add(value / 4.0);
            doubleMin.add(value / 4.0);
            average.add(value);
            getRuntimeContext().getIntCounter("count").add(1);
            getRuntimeContext().getLongCounter("sum").add(value);
            getRuntimeContext().getDoubleCounter("halves").add(value / 2.0);
            getRuntimeContext().getHistogram("mod3").add((int) (value % 3));
            return value;
        }
    }

    @Test
    void resultsAreMergedAcrossSubtasks() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(3);
        env.fromSequence(1, 10).map(new Measure()).sinkTo(new DiscardingSink<>());
        JobExecutionResult result = env.execute("accumulators");

        List<Long> seen = new ArrayList<>(result.<List<Long>>getAccumulatorResult("seen"));
        seen.sort(null);
        assertThat(seen).containsExactly(1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L, 10L);
        assertThat(result.<Integer>getAccumulatorResult("int-max")).isEqualTo(10);
        assertThat(result.<Integer>getAccumulatorResult("int-min")).isEqualTo(1);
        assertThat(result.<Long>getAccumulatorResult("long-max")).isEqualTo(10_000_000_000L);
        assertThat(result.<Long>getAccumulatorResult("long-min")).isEqualTo(-10L);
        assertThat(result.<Double>getAccumulatorResult("double-max")).isEqualTo(2.5);
        assertThat(result.<Double>getAccumulatorResult("double-min")).isEqualTo(0.25);
        assertThat(result.<Double>getAccumulatorResult("average")).isEqualTo(5.5);
        assertThat(result.getIntCounterResult("count")).isEqualTo(10);
        assertThat(result.<Long>getAccumulatorResult("sum")).isEqualTo(55L);
        assertThat(result.<Double>getAccumulatorResult("halves")).isEqualTo(27.5);
        TreeMap<Integer, Integer> histogram = result.getAccumulatorResult("mod3");
        assertThat(histogram).containsExactly(Map.entry(0, 3), Map.entry(1, 4), Map.entry(2, 3));
        assertThat(result.getAllAccumulatorResults()).hasSize(12);
    }
}
