package dev.runnel.api.common.functions;

import dev.runnel.util.Collector;

/**
 * Sees, for one key and one window, all elements of both inputs of a co-group
 * ({@code first.coGroup(second).where(...).equalTo(...).window(...).apply(coGroupFunction)}). Either
 * side may be empty (but not both), so outer joins can be built on it.
 *
 * <p>Called on a task thread, never concurrently on one instance; the iterables and the collector
 * are valid only during the call.
 *
 * @param <IN1> the type of the first input's elements
 * @param <IN2> the type of the second input's elements
 * @param <O> the result type
 */
@FunctionalInterface
public interface CoGroupFunction<IN1, IN2, O> extends Function {

    /** Emits the results for the elements {@code first} and {@code second} of one key into {@code out}. */
    void coGroup(Iterable<IN1> first, Iterable<IN2> second, Collector<O> out) throws Exception;
}
