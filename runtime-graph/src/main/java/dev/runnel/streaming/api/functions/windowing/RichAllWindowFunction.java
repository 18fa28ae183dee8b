package dev.runnel.streaming.api.functions.windowing;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;

/** An {@link AllWindowFunction} with a lifecycle and runtime context. */
public abstract class RichAllWindowFunction<IN, OUT, W extends Window> extends AbstractRichFunction
        implements AllWindowFunction<IN, OUT, W> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract void apply(W window, Iterable<IN> values, Collector<OUT> out) throws Exception;
}
