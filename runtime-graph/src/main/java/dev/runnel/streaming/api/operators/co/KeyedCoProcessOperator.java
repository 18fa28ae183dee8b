package dev.runnel.streaming.api.operators.co;

import dev.runnel.streaming.api.operators.*;
import dev.runnel.streaming.api.functions.co.KeyedCoProcessFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * Runs a {@link KeyedCoProcessFunction} on two connected keyed streams, per record with the record's
 * key current, and per fired timer with the timer's key current (timers and contexts:
 * {@link KeyedProcessOperatorBase}). Task thread only.
 */
public final class KeyedCoProcessOperator<K, IN1, IN2, OUT>
        extends KeyedProcessOperatorBase<K, OUT, KeyedCoProcessFunction<K, IN1, IN2, OUT>>
        implements TwoInputStreamOperator<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;

    public KeyedCoProcessOperator(KeyedCoProcessFunction<K, IN1, IN2, OUT> function) {
        super(function);
    }

    @Override
    public void processElement1(StreamRecord<IN1> element) throws Exception {
        userFunction.processElement1(element.getValue(), startElement(element), collector());
        endElement();
    }

    @Override
    public void processElement2(StreamRecord<IN2> element) throws Exception {
        userFunction.processElement2(element.getValue(), startElement(element), collector());
        endElement();
    }
}
