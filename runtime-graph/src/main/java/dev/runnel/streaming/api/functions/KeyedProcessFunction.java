package dev.runnel.streaming.api.functions;

import dev.runnel.util.Collector;

/**
 * Processes each record of a keyed stream with keyed state and timers: {@link #processElement} per
 * record, {@link #onTimer} when a timer of the key fires (once per registered timestamp, in order).
 * The {@link Context} and {@link OnTimerContext} it sees are those of {@link BaseKeyedProcessFunction}.
 *
 * @param <K> the key type
 * @param <I> the input type
 * @param <O> the output type
 */
public abstract class KeyedProcessFunction<K, I, O> extends BaseKeyedProcessFunction<K, O> {

    private static final long serialVersionUID = 1L;

    public abstract void processElement(I value, Context ctx, Collector<O> out) throws Exception;
}
