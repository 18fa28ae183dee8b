package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/** Applies a {@link MapFunction}; the output keeps the input's timestamp. */
public final class StreamMap<IN, OUT> extends AbstractUdfStreamOperator<OUT, MapFunction<IN, OUT>>
        implements OneInputStreamOperator<IN, OUT> {

    private static final long serialVersionUID = 1L;

    public StreamMap(MapFunction<IN, OUT> mapper) {
        super(mapper);
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        output.collect(element.replace(userFunction.map(element.getValue())));
    }
}
