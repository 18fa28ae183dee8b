package dev.runnel.streaming.api.functions.windowing;

import dev.runnel.api.common.functions.Function;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;

/** Evaluates a fired window from its key, the window and its contents (the older, simpler form). */
public interface WindowFunction<IN, OUT, KEY, W extends Window> extends Function {

    void apply(KEY key, W window, Iterable<IN> input, Collector<OUT> out) throws Exception;
}
