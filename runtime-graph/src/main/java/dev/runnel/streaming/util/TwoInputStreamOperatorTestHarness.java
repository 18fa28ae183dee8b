package dev.runnel.streaming.util;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.api.operators.OperatorConfig;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * Runs one two-input operator without a cluster (see {@link AbstractStreamOperatorTestHarness}): feed
 * records and watermarks to either input, advance processing time, read what it emitted. The
 * operator's event time is the minimum of its inputs' watermarks, as in a job.
 */
public class TwoInputStreamOperatorTestHarness<IN1, IN2, OUT> extends AbstractStreamOperatorTestHarness<OUT> {

    protected final TwoInputStreamOperator<IN1, IN2, OUT> operator;

    /** A non-keyed operator as subtask 0 of 1. */
    public TwoInputStreamOperatorTestHarness(TwoInputStreamOperator<IN1, IN2, OUT> operator) {
        this(operator, harnessConfig(operator, null, null, null, 128), 1, 0, null);
    }

    protected TwoInputStreamOperatorTestHarness(TwoInputStreamOperator<IN1, IN2, OUT> operator, OperatorConfig config,
            int parallelism, int subtaskIndex, StateBackend stateBackend) {
        super(operator, config, parallelism, subtaskIndex, stateBackend);
        this.operator = operator;
    }

    public void processElement1(IN1 value, long timestamp) throws Exception {
        processElement1(new StreamRecord<>(value, timestamp));
    }

    public void processElement1(StreamRecord<IN1> record) throws Exception {
        operator.setKeyContextElement1(record);
        operator.processElement1(record);
        processMails();
    }

    public void processElement2(IN2 value, long timestamp) throws Exception {
        processElement2(new StreamRecord<>(value, timestamp));
    }

    public void processElement2(StreamRecord<IN2> record) throws Exception {
        operator.setKeyContextElement2(record);
        operator.processElement2(record);
        processMails();
    }

    /** The watermark of input 1; event time advances to the minimum of both inputs. */
    public void processWatermark1(long timestamp) throws Exception {
        operator.processWatermark1(new Watermark(timestamp));
        processMails();
    }

    /** The watermark of input 2; event time advances to the minimum of both inputs. */
    public void processWatermark2(long timestamp) throws Exception {
        operator.processWatermark2(new Watermark(timestamp));
        processMails();
    }

    /** The same watermark on both inputs. */
    public void processBothWatermarks(long timestamp) throws Exception {
        processWatermark1(timestamp);
        processWatermark2(timestamp);
    }

    @Override
    public TwoInputStreamOperator<IN1, IN2, OUT> getOperator() {
        return operator;
    }
}
