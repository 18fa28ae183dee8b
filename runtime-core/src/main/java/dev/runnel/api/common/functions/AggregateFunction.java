package dev.runnel.api.common.functions;

/**
 * An incremental aggregation: values are folded into an accumulator, accumulators of merged windows
 * are merged, and a result is read from an accumulator. Used by aggregating state and
 * {@code WindowedStream.aggregate}.
 *
 * @param <IN> the type of the values aggregated
 * @param <ACC> the accumulator type (held in state, so it needs a serializer)
 * @param <OUT> the result type
 */
public interface AggregateFunction<IN, ACC, OUT> extends Function {

    /** A new, empty accumulator. */
    ACC createAccumulator();

    /** Folds {@code value} into {@code accumulator}; may modify and return it. */
    ACC add(IN value, ACC accumulator);

    /** The result for {@code accumulator}. */
    OUT getResult(ACC accumulator);

    /** Merges two accumulators; may modify and return {@code a}. */
    ACC merge(ACC a, ACC b);
}
