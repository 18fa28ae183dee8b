package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.functions.FilterFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/** Forwards the records a {@link FilterFunction} accepts. */
public final class StreamFilter<IN> extends AbstractUdfStreamOperator<IN, FilterFunction<IN>>
        implements OneInputStreamOperator<IN, IN> {

    private static final long serialVersionUID = 1L;

    public StreamFilter(FilterFunction<IN> filter) {
        super(filter);
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        if (userFunction.filter(element.getValue())) {
            output.collect(element);
        }
    }
}
