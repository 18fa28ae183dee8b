package dev.runnel.streaming.api.functions;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;

/**
 * What the keyed process functions of one and of two inputs ({@link KeyedProcessFunction},
 * {@link dev.runnel.streaming.api.functions.co.KeyedCoProcessFunction}) have in common: timers of the
 * current key, {@link #onTimer}, and the contexts they see. Users extend one of those two, never this
 * class; it exists so that one runtime implementation serves both (in Flink each declares its own,
 * identical, contexts). {@code KeyedProcessFunction.Context} and {@code OnTimerContext} still name these
 * member classes, so user code reads as in Flink.
 *
 * <p>Called on the task thread only; a context is valid only during the call it is passed to.
 *
 * @param <K> the key type
 * @param <O> the output type
 */
public abstract class BaseKeyedProcessFunction<K, O> extends AbstractRichFunction {

    private static final long serialVersionUID = 1L;

    /** A timer of the current key fired: once per registered timestamp, in timestamp order. */
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<O> out) throws Exception {}

    /** What the record-processing methods can see. Valid only during the call. */
    public abstract class Context {

        /** The record's timestamp, or null if it has none. */
        public abstract Long timestamp();

        /** Timers and time of the current key; never null. */
        public abstract TimerService timerService();

        /** Emits {@code value} to side output {@code outputTag}, with the record's timestamp. */
        public abstract <X> void output(OutputTag<X> outputTag, X value);

        /** The key of the record being processed. */
        public abstract K getCurrentKey();
    }

    /** What {@link #onTimer} can see. Valid only during the call. */
    public abstract class OnTimerContext extends Context {

        /** Whether an event-time or a processing-time timer fired. */
        public abstract TimeDomain timeDomain();

        /** The key of the timer that fired. */
        @Override
        public abstract K getCurrentKey();
    }
}
