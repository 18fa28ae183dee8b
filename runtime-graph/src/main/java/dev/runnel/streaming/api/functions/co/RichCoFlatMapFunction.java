package dev.runnel.streaming.api.functions.co;

import dev.runnel.api.common.functions.AbstractRichFunction;

/** A {@link CoFlatMapFunction} with a lifecycle, runtime context and (when keyed) state. */
public abstract class RichCoFlatMapFunction<IN1, IN2, OUT> extends AbstractRichFunction
        implements CoFlatMapFunction<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;
}
