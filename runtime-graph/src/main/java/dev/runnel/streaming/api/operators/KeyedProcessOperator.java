package dev.runnel.streaming.api.operators;

import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * Runs a {@link KeyedProcessFunction}: per record with the record's key current, and per fired timer
 * with the timer's key current (timers and contexts: {@link KeyedProcessOperatorBase}). Task thread
 * only.
 */
public final class KeyedProcessOperator<K, IN, OUT>
        extends KeyedProcessOperatorBase<K, OUT, KeyedProcessFunction<K, IN, OUT>>
        implements OneInputStreamOperator<IN, OUT> {

    private static final long serialVersionUID = 1L;

    public KeyedProcessOperator(KeyedProcessFunction<K, IN, OUT> function) {
        super(function);
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        userFunction.processElement(element.getValue(), startElement(element), collector());
        endElement();
    }
}
