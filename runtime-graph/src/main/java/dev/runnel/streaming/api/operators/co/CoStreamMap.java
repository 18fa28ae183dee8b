package dev.runnel.streaming.api.operators.co;

import dev.runnel.streaming.api.operators.*;
import dev.runnel.streaming.api.functions.co.CoMapFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/** Applies a {@link CoMapFunction} to two connected streams. */
public final class CoStreamMap<IN1, IN2, OUT> extends AbstractUdfStreamOperator<OUT, CoMapFunction<IN1, IN2, OUT>>
        implements TwoInputStreamOperator<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;

    public CoStreamMap(CoMapFunction<IN1, IN2, OUT> mapper) {
        super(mapper);
    }

    @Override
    public void processElement1(StreamRecord<IN1> element) throws Exception {
        output.collect(element.replace(userFunction.map1(element.getValue())));
    }

    @Override
    public void processElement2(StreamRecord<IN2> element) throws Exception {
        output.collect(element.replace(userFunction.map2(element.getValue())));
    }
}
