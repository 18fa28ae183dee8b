package dev.runnel.streaming.api.functions;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;

/**
 * Processes each record of a keyed stream with keyed state and timers: {@link #processElement} per
 * record, {@link #onTimer} when a timer of the key fires (once per registered timestamp, in order).
 *
 * @param <K> the key type
 * @param <I> the input type
 * @param <O> the output type
 */
public abstract class KeyedProcessFunction<K, I, O> extends AbstractRichFunction {

    private static final long serialVersionUID = 1L;

    public abstract void processElement(I value, Context ctx, Collector<O> out) throws Exception;

    public void onTimer(long timestamp, OnTimerContext ctx, Collector<O> out) throws Exception {}

    /** What {@link #processElement} can see. Valid only during the call. */
    public abstract class Context {

        /** The record's timestamp, or null if it has none. */
        public abstract Long timestamp();

        public abstract TimerService timerService();

        public abstract <X> void output(OutputTag<X> outputTag, X value);

        /** The key of the record being processed. */
        public abstract K getCurrentKey();
    }

    /** What {@link #onTimer} can see. */
    public abstract class OnTimerContext extends Context {

        public abstract TimeDomain timeDomain();

        /** The key of the timer that fired. */
        @Override
        public abstract K getCurrentKey();
    }
}
