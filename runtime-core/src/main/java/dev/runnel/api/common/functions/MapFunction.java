package dev.runnel.api.common.functions;

/**
 * Transforms each record into exactly one record, for {@code DataStream.map}.
 *
 * <p>Called on a task thread, once per input record, never concurrently on one instance. Must not
 * return null. Unless object reuse is enabled, it may keep or modify its input; with reuse, it must
 * do neither after returning.
 *
 * <p>The output type is extracted from the implementation's generic signature; for a lambda that
 * returns a generic type (e.g. a {@code Tuple2}), Java erases it and the type must be declared (an
 * anonymous class, or {@code returns(...)} on the stream).
 *
 * @param <IN> the input type
 * @param <OUT> the output type
 */
@FunctionalInterface
public interface MapFunction<IN, OUT> extends Function {

    /** The record {@code value} maps to; never null. */
    OUT map(IN value) throws Exception;
}
