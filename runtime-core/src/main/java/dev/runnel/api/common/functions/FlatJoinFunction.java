package dev.runnel.api.common.functions;

import dev.runnel.util.Collector;

/**
 * Like {@link JoinFunction}, but emits zero, one or more results per joined pair through a
 * {@link Collector}, e.g. to drop pairs or to split them.
 *
 * <p>Called on a task thread, never concurrently on one instance; the collector is valid only during
 * the call. A lambda's output type is erased: declare it with {@code apply(function, typeInfo)}.
 *
 * @param <IN1> the type of the first input's elements
 * @param <IN2> the type of the second input's elements
 * @param <OUT> the result type
 */
@FunctionalInterface
public interface FlatJoinFunction<IN1, IN2, OUT> extends Function {

    /** Emits the results of joining {@code first} with {@code second} into {@code out}. */
    void join(IN1 first, IN2 second, Collector<OUT> out) throws Exception;
}
