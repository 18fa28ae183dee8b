package dev.runnel.streaming.api.functions.co;

import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.runtime.state.KeyedStateFunction;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.util.Collector;

/**
 * Processes a keyed stream connected to a broadcast stream ({@code keyedStream.connect(broadcastStream)}):
 * elements of the keyed stream have their key current, with keyed state and timers, and read the broadcast
 * state; broadcast elements reach every parallel instance, may update the broadcast state, and may visit the
 * keyed state of every key of the instance ({@link Context#applyToKeyedState}).
 *
 * <p>Called on the task thread only.
 *
 * @param <KS> the key type of the keyed stream
 * @param <IN1> the type of the keyed stream
 * @param <IN2> the type of the broadcast stream
 * @param <OUT> the output type
 */
public abstract class KeyedBroadcastProcessFunction<KS, IN1, IN2, OUT> extends BaseBroadcastProcessFunction {

    private static final long serialVersionUID = 1L;

    /** An element of the keyed stream, with its key current; the broadcast state is read-only here. */
    public abstract void processElement(IN1 value, ReadOnlyContext ctx, Collector<OUT> out) throws Exception;

    /** An element of the broadcast stream; no key is current, the broadcast state may be changed. */
    public abstract void processBroadcastElement(IN2 value, Context ctx, Collector<OUT> out) throws Exception;

    /** A timer registered in {@link #processElement} fired, with its key current. */
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<OUT> out) throws Exception {}

    /** The broadcast side's context. */
    public abstract class Context extends BaseBroadcastProcessFunction.Context {

        /**
         * Calls {@code function} once for every key of this parallel instance that has state under
         * {@code stateDescriptor}, with that key current and its state. The keys are collected first, so the
         * function may change or clear the state it is given.
         */
        public abstract <VS, S extends State> void applyToKeyedState(StateDescriptor<S, VS> stateDescriptor,
                KeyedStateFunction<KS, S> function) throws Exception;
    }

    /** The keyed side's context: the current key, timers, read-only broadcast state. */
    public abstract class ReadOnlyContext extends BaseBroadcastProcessFunction.ReadOnlyContext {

        /** Timers and time of the current key. */
        public abstract TimerService timerService();

        /** The key of the element being processed. */
        public abstract KS getCurrentKey();
    }

    /** What {@link #onTimer} can see. */
    public abstract class OnTimerContext extends ReadOnlyContext {

        /** Whether an event-time or a processing-time timer fired. */
        public abstract TimeDomain timeDomain();

        /** The key of the timer that fired. */
        @Override
        public abstract KS getCurrentKey();
    }
}
