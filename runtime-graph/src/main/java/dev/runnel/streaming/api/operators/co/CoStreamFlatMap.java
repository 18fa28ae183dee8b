package dev.runnel.streaming.api.operators.co;

import dev.runnel.streaming.api.operators.*;
import dev.runnel.streaming.api.functions.co.CoFlatMapFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/** Applies a {@link CoFlatMapFunction} to two connected streams. */
public final class CoStreamFlatMap<IN1, IN2, OUT>
        extends AbstractUdfStreamOperator<OUT, CoFlatMapFunction<IN1, IN2, OUT>>
        implements TwoInputStreamOperator<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;

    private transient TimestampedCollector<OUT> collector;

    public CoStreamFlatMap(CoFlatMapFunction<IN1, IN2, OUT> flatMapper) {
        super(flatMapper);
    }

    @Override
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
    }

    @Override
    public void processElement1(StreamRecord<IN1> element) throws Exception {
        collector.setTimestamp(element);
        userFunction.flatMap1(element.getValue(), collector);
    }

    @Override
    public void processElement2(StreamRecord<IN2> element) throws Exception {
        collector.setTimestamp(element);
        userFunction.flatMap2(element.getValue(), collector);
    }
}
