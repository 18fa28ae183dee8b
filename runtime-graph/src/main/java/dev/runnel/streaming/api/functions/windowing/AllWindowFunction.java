package dev.runnel.streaming.api.functions.windowing;

import dev.runnel.api.common.functions.Function;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;

/**
 * Evaluates a fired window of a non-keyed stream ({@code windowAll}) from the window and its contents.
 *
 * @param <IN> the type of the window contents
 * @param <OUT> the output type
 * @param <W> the window type
 */
public interface AllWindowFunction<IN, OUT, W extends Window> extends Function {

    void apply(W window, Iterable<IN> values, Collector<OUT> out) throws Exception;
}
