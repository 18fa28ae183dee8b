package dev.runnel.streaming.api.functions.windowing;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;

/** A {@link WindowFunction} with a lifecycle and runtime context. */
public abstract class RichWindowFunction<IN, OUT, KEY, W extends Window> extends AbstractRichFunction
        implements WindowFunction<IN, OUT, KEY, W> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract void apply(KEY key, W window, Iterable<IN> input, Collector<OUT> out) throws Exception;
}
