package dev.runnel.streaming.util;

import dev.runnel.streaming.api.operators.co.CoProcessOperator;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.api.operators.OperatorConfig;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.api.watermark.Watermark;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * Runs one two-input operator (e.g. a {@code CoProcessOperator}) without a cluster (see
 * {@link AbstractStreamOperatorTestHarness}): feed each input by hand, advance processing time, read
 * what it emitted. The operator's event time is the minimum of the two inputs' watermarks, as in a
 * job. Each call runs the mails the operator queued before it returns.
 *
 * @param <IN1> the first input's type
 * @param <IN2> the second input's type
 * @param <OUT> the output type
 */
public class TwoInputStreamOperatorTestHarness<IN1, IN2, OUT> extends AbstractStreamOperatorTestHarness<OUT> {

    private final TwoInputStreamOperator<IN1, IN2, OUT> twoInputOperator;

    /** A non-keyed operator as subtask 0 of 1. */
    public TwoInputStreamOperatorTestHarness(TwoInputStreamOperator<IN1, IN2, OUT> operator) {
        this(operator, harnessConfig(operator, null, null, null, 128), 1, 0, null);
    }

    protected TwoInputStreamOperatorTestHarness(TwoInputStreamOperator<IN1, IN2, OUT> operator, OperatorConfig config,
            int parallelism, int subtaskIndex, StateBackend stateBackend) {
        super(operator, config, parallelism, subtaskIndex, stateBackend);
        this.twoInputOperator = operator;
    }

    public void processElement1(StreamRecord<IN1> record) throws Exception {
        twoInputOperator.setKeyContextElement1(record);
        twoInputOperator.processElement1(record);
        processMails();
    }

    public void processElement1(IN1 value, long timestamp) throws Exception {
        processElement1(new StreamRecord<>(value, timestamp));
    }

    public void processElement2(StreamRecord<IN2> record) throws Exception {
        twoInputOperator.setKeyContextElement2(record);
        twoInputOperator.processElement2(record);
        processMails();
    }

    public void processElement2(IN2 value, long timestamp) throws Exception {
        processElement2(new StreamRecord<>(value, timestamp));
    }

    /** The watermark of input 1; event time advances to the minimum of both inputs. */
    public void processWatermark1(Watermark mark) throws Exception {
        twoInputOperator.processWatermark1(toOperatorWatermark(mark));
        processMails();
    }

    public void processWatermark1(long timestamp) throws Exception {
        processWatermark1(new Watermark(timestamp));
    }

    /** The watermark of input 2; event time advances to the minimum of both inputs. */
    public void processWatermark2(Watermark mark) throws Exception {
        twoInputOperator.processWatermark2(toOperatorWatermark(mark));
        processMails();
    }

    public void processWatermark2(long timestamp) throws Exception {
        processWatermark2(new Watermark(timestamp));
    }

    /** Both inputs reach {@code mark}. */
    public void processBothWatermarks(Watermark mark) throws Exception {
        processWatermark1(mark);
        processWatermark2(mark);
    }

    public void processBothWatermarks(long timestamp) throws Exception {
        processBothWatermarks(new Watermark(timestamp));
    }

    /** End of input {@code inputIndex} (1 or 2); the other may still deliver. {@link #endInput()} finishes the operator. */
    public void endInput(int inputIndex) throws Exception {
        twoInputOperator.endInput(inputIndex);
        processMails();
    }

    @Override
    public TwoInputStreamOperator<IN1, IN2, OUT> getOperator() {
        return twoInputOperator;
    }
}
