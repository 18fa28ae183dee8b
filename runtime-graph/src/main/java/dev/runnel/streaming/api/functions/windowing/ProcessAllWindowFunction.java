package dev.runnel.streaming.api.functions.windowing;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.api.common.state.KeyedStateStore;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;

/**
 * Evaluates a fired window of a non-keyed stream ({@code windowAll}) with its context: the window,
 * per-window and global state, and side outputs.
 *
 * @param <IN> the type of the window contents (or of the pre-aggregated value)
 * @param <OUT> the output type
 * @param <W> the window type
 */
public abstract class ProcessAllWindowFunction<IN, OUT, W extends Window> extends AbstractRichFunction {

    private static final long serialVersionUID = 1L;

    public abstract void process(Context context, Iterable<IN> elements, Collector<OUT> out) throws Exception;

    /** The window is being removed: clean up per-window state here. */
    public void clear(Context context) throws Exception {}

    /** What {@link #process} can see. */
    public abstract class Context {

        public abstract W window();

        /** State of this window; clean it up in {@link #clear}. */
        public abstract KeyedStateStore windowState();

        /** State across all windows. */
        public abstract KeyedStateStore globalState();

        public abstract <X> void output(OutputTag<X> outputTag, X value);
    }
}
