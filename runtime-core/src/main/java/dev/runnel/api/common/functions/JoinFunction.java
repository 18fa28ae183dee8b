package dev.runnel.api.common.functions;

/**
 * Combines one element of each input of a join into one result, for window joins
 * ({@code first.join(second).where(...).equalTo(...).window(...).apply(joinFunction)}). It is called
 * once for every pair of elements with the same key in the same window: an inner join.
 *
 * <p>Called on a task thread, never concurrently on one instance.
 *
 * @param <IN1> the type of the first input's elements
 * @param <IN2> the type of the second input's elements
 * @param <OUT> the result type
 */
@FunctionalInterface
public interface JoinFunction<IN1, IN2, OUT> extends Function {

    /** The result of joining {@code first} with {@code second}. */
    OUT join(IN1 first, IN2 second) throws Exception;
}
