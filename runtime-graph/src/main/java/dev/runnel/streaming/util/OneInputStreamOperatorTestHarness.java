package dev.runnel.streaming.util;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.OperatorConfig;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * Runs one one-input operator without a cluster (see {@link AbstractStreamOperatorTestHarness}): feed
 * records and watermarks to its input, advance processing time, read what it emitted.
 */
public class OneInputStreamOperatorTestHarness<IN, OUT> extends AbstractStreamOperatorTestHarness<OUT> {

    protected final OneInputStreamOperator<IN, OUT> operator;

    /** A non-keyed operator as subtask 0 of 1. */
    public OneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator) {
        this(operator, harnessConfig(operator, null, null, null, 128), 1, 0, null);
    }

    protected OneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator, OperatorConfig config,
            int parallelism, int subtaskIndex, StateBackend stateBackend) {
        super(operator, config, parallelism, subtaskIndex, stateBackend);
        this.operator = operator;
    }

    public void processElement(IN value, long timestamp) throws Exception {
        processElement(new StreamRecord<>(value, timestamp));
    }

    public void processElement(IN value) throws Exception {
        processElement(new StreamRecord<>(value));
    }

    public void processElement(StreamRecord<IN> record) throws Exception {
        operator.setKeyContextElement(record);
        operator.processElement(record);
        processMails();
    }

    /** Advances event time: fires event-time timers up to {@code timestamp}. */
    public void processWatermark(long timestamp) throws Exception {
        operator.processWatermark(new Watermark(timestamp));
        processMails();
    }

    @Override
    public OneInputStreamOperator<IN, OUT> getOperator() {
        return operator;
    }
}
