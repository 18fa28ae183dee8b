package dev.runnel.api.common.functions;

import dev.runnel.util.Collector;

/** A {@link FlatJoinFunction} with a lifecycle and runtime context. */
public abstract class RichFlatJoinFunction<IN1, IN2, OUT> extends AbstractRichFunction
        implements FlatJoinFunction<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract void join(IN1 first, IN2 second, Collector<OUT> out) throws Exception;
}
