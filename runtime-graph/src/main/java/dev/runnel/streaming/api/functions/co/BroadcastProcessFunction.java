package dev.runnel.streaming.api.functions.co;

import dev.runnel.util.Collector;

/**
 * Processes a non-keyed stream connected to a broadcast stream ({@code stream.connect(broadcastStream)}):
 * every broadcast element reaches every parallel instance and may update the broadcast state; the elements
 * of the other stream read it. No timers.
 *
 * <p>Called on the task thread only.
 *
 * @param <IN1> the type of the non-broadcast stream
 * @param <IN2> the type of the broadcast stream
 * @param <OUT> the output type
 */
public abstract class BroadcastProcessFunction<IN1, IN2, OUT> extends BaseBroadcastProcessFunction {

    private static final long serialVersionUID = 1L;

    /** An element of the non-broadcast stream; the broadcast state is read-only here. */
    public abstract void processElement(IN1 value, ReadOnlyContext ctx, Collector<OUT> out) throws Exception;

    /** An element of the broadcast stream; the broadcast state may be changed here. */
    public abstract void processBroadcastElement(IN2 value, Context ctx, Collector<OUT> out) throws Exception;

    /** The broadcast side's context. */
    public abstract class Context extends BaseBroadcastProcessFunction.Context {}

    /** The non-broadcast side's context. */
    public abstract class ReadOnlyContext extends BaseBroadcastProcessFunction.ReadOnlyContext {}
}
