package dev.runnel.streaming.api.functions.windowing;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.api.common.state.KeyedStateStore;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;

/**
 * Evaluates a fired window with everything about it: the key, the window, its contents (or the
 * pre-aggregated value), time, per-window and per-key state, and side outputs.
 *
 * @param <IN> the type of the window contents
 * @param <OUT> the output type
 * @param <KEY> the key type
 * @param <W> the window type
 */
public abstract class ProcessWindowFunction<IN, OUT, KEY, W extends Window> extends AbstractRichFunction {

    private static final long serialVersionUID = 1L;

    public abstract void process(KEY key, Context context, Iterable<IN> elements, Collector<OUT> out) throws Exception;

    /** The window is being removed: clean up per-window state here. */
    public void clear(Context context) throws Exception {}

    /** What {@link #process} can see. */
    public abstract class Context {

        public abstract W window();

        public abstract long currentProcessingTime();

        public abstract long currentWatermark();

        /** State of this key and this window. */
        public abstract KeyedStateStore windowState();

        /** State of this key across all windows. */
        public abstract KeyedStateStore globalState();

        public abstract <X> void output(OutputTag<X> outputTag, X value);
    }
}
