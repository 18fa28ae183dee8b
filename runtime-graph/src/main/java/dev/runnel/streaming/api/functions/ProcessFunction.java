package dev.runnel.streaming.api.functions;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;

/**
 * Processes each record with access to its timestamp, time, and side outputs. On a non-keyed stream
 * timers are not available; use {@link KeyedProcessFunction} after {@code keyBy} for state and timers.
 */
public abstract class ProcessFunction<I, O> extends AbstractRichFunction {

    private static final long serialVersionUID = 1L;

    public abstract void processElement(I value, Context ctx, Collector<O> out) throws Exception;

    /** Called when a timer fires (keyed streams only). */
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<O> out) throws Exception {}

    /** What {@link #processElement} can see. Valid only during the call. */
    public abstract class Context {

        /** The record's timestamp, or null if it has none. */
        public abstract Long timestamp();

        public abstract TimerService timerService();

        /** Emits {@code value} to side output {@code outputTag}. */
        public abstract <X> void output(OutputTag<X> outputTag, X value);
    }

    /** What {@link #onTimer} can see. */
    public abstract class OnTimerContext extends Context {

        public abstract TimeDomain timeDomain();
    }
}
