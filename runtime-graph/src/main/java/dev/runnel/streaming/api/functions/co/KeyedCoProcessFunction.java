package dev.runnel.streaming.api.functions.co;

import dev.runnel.streaming.api.functions.BaseKeyedProcessFunction;
import dev.runnel.util.Collector;

/**
 * Processes two connected keyed streams with keyed state and timers: {@link #processElement1} and
 * {@link #processElement2} per record of either input, {@link #onTimer} when a timer of the key
 * fires. The {@link Context} and {@link OnTimerContext} it sees are those of
 * {@link BaseKeyedProcessFunction}.
 */
public abstract class KeyedCoProcessFunction<K, IN1, IN2, OUT> extends BaseKeyedProcessFunction<K, OUT> {

    private static final long serialVersionUID = 1L;

    public abstract void processElement1(IN1 value, Context ctx, Collector<OUT> out) throws Exception;

    public abstract void processElement2(IN2 value, Context ctx, Collector<OUT> out) throws Exception;
}
