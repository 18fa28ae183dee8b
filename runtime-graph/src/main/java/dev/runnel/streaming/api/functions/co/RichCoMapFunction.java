package dev.runnel.streaming.api.functions.co;

import dev.runnel.api.common.functions.AbstractRichFunction;

/** A {@link CoMapFunction} with a lifecycle, runtime context and (when keyed) state. */
public abstract class RichCoMapFunction<IN1, IN2, OUT> extends AbstractRichFunction
        implements CoMapFunction<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;
}
