package dev.runnel.streaming.util;

import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.OperatorConfig;
import dev.runnel.streaming.api.watermark.Watermark;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.util.Collection;

/**
 * Runs one operator without a cluster: feed records, watermarks and processing time by hand, read
 * what it emitted. Keyed operators get real keyed state and timers from a real store (the heap store
 * by default), so tests exercise the same code as jobs.
 *
 * <pre>{@code
 * var harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(fn), e -> e.id, Types.STRING);
 * harness.open();
 * harness.processElement(event, 10);
 * harness.processWatermark(100);          // fires event-time timers up to 100
 * assertThat(harness.extractOutputValues()).containsExactly(...);
 * }</pre>
 *
 * <p>Single-threaded: call everything from the test thread. Output records are copies of the holder
 * (the values themselves are not copied).
 */
public class OneInputStreamOperatorTestHarness<IN, OUT> extends AbstractStreamOperatorTestHarness<OUT> {

    private final OneInputStreamOperator<IN, OUT> oneInputOperator;

    /** A non-keyed operator as subtask 0 of 1. */
    public OneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator) {
        this(operator, unkeyedConfig(operator), 1, 0, null);
    }

    /** A non-keyed operator as subtask {@code subtaskIndex} of {@code parallelism}. */
    public OneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator, int maxParallelism,
            int parallelism, int subtaskIndex) {
        this(operator, new OperatorConfig("harness-operator", operator.getClass().getSimpleName(), null, null, null,
                maxParallelism), parallelism, subtaskIndex, null);
    }

    protected OneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator, OperatorConfig config,
            int parallelism, int subtaskIndex, StateBackend stateBackend) {
        super(operator, config, parallelism, subtaskIndex, stateBackend);
        this.oneInputOperator = operator;
    }

    public void processElement(IN value, long timestamp) throws Exception {
        processElement(new StreamRecord<>(value, timestamp));
    }

    public void processElement(IN value) throws Exception {
        processElement(new StreamRecord<>(value));
    }

    public void processElement(StreamRecord<IN> record) throws Exception {
        oneInputOperator.setKeyContextElement(record);
        oneInputOperator.processElement(record);
    }

    public void processElements(Collection<StreamRecord<IN>> records) throws Exception {
        for (StreamRecord<IN> record : records) {
            processElement(record);
        }
    }

    /** Advances event time: fires event-time timers up to {@code timestamp}. */
    public void processWatermark(long timestamp) throws Exception {
        processWatermark(new Watermark(timestamp));
    }

    public void processWatermark(Watermark mark) throws Exception {
        oneInputOperator.processWatermark(toOperatorWatermark(mark));
    }

    /** End of input: the operator's {@code finish()}. */
    public void endInput() throws Exception {
        oneInputOperator.finish();
    }

    @Override
    public OneInputStreamOperator<IN, OUT> getOperator() {
        return oneInputOperator;
    }
}
