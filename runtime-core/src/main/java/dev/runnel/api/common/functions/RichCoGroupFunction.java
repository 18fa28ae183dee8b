package dev.runnel.api.common.functions;

import dev.runnel.util.Collector;

/** A {@link CoGroupFunction} with a lifecycle and runtime context. */
public abstract class RichCoGroupFunction<IN1, IN2, OUT> extends AbstractRichFunction
        implements CoGroupFunction<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract void coGroup(Iterable<IN1> first, Iterable<IN2> second, Collector<OUT> out) throws Exception;
}
