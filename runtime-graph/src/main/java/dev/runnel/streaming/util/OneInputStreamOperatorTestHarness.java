package dev.runnel.streaming.util;

import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.OperatorConfig;
import dev.runnel.streaming.api.watermark.Watermark;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.util.Collection;

/**
 * Runs one one-input operator without a cluster (see {@link AbstractStreamOperatorTestHarness}): feed
 * records and watermarks to its input, advance processing time, read what it emitted. Each call runs
 * the mails the operator queued before it returns.
 */
public class OneInputStreamOperatorTestHarness<IN, OUT> extends AbstractStreamOperatorTestHarness<OUT> {

    private final OneInputStreamOperator<IN, OUT> oneInputOperator;

    /** A non-keyed operator as subtask 0 of 1. */
    public OneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator) {
        this(operator, 128, 1, 0);
    }

    /** A non-keyed operator as subtask {@code subtaskIndex} of {@code parallelism}. */
    public OneInputStreamOperatorTestHarness(OneInputStreamOperator<IN, OUT> operator, int maxParallelism,
            int parallelism, int subtaskIndex) {
        this(operator, harnessConfig(operator, null, null, null, maxParallelism), parallelism, subtaskIndex, null);
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
        processMails();
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
        processMails();
    }

    @Override
    public OneInputStreamOperator<IN, OUT> getOperator() {
        return oneInputOperator;
    }
}
