package dev.runnel.api.common.functions;

import dev.runnel.util.Collector;

/** A {@link FlatMapFunction} with a lifecycle and runtime context. */
public abstract class RichFlatMapFunction<IN, OUT> extends AbstractRichFunction implements FlatMapFunction<IN, OUT> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract void flatMap(IN value, Collector<OUT> out) throws Exception;
}
