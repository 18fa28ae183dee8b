package dev.runnel.api.common.functions;

import dev.runnel.util.Collector;

/**
 * Transforms each record into zero, one or more records, emitted through a {@link Collector}, for
 * {@code DataStream.flatMap}.
 *
 * <p>Called on a task thread, once per input record, never concurrently on one instance; the
 * collector is valid only during the call. Unless object reuse is enabled, it may keep or modify its
 * input; with reuse, it must do neither after returning.
 *
 * <p>The output type is the type argument of the {@code Collector} parameter. Java erases it for
 * lambdas, so a lambda flatMap needs its output type declared ({@code returns(...)}); anonymous
 * classes and method references to methods with a declared {@code Collector<X>} parameter work as is.
 *
 * @param <IN> the input type
 * @param <OUT> the output type
 */
@FunctionalInterface
public interface FlatMapFunction<IN, OUT> extends Function {

    /** Emits the records {@code value} maps to into {@code out}. */
    void flatMap(IN value, Collector<OUT> out) throws Exception;
}
