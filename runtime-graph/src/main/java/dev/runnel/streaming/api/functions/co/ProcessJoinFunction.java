package dev.runnel.streaming.api.functions.co;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;

/**
 * Processes each pair an interval join produces ({@code left.intervalJoin(right).between(...)
 * .process(function)}): called once for every left and right element of one key whose timestamps
 * lie within the bounds. What it emits carries the larger of the two timestamps.
 *
 * @param <IN1> the type of the left elements
 * @param <IN2> the type of the right elements
 * @param <OUT> the output type
 */
public abstract class ProcessJoinFunction<IN1, IN2, OUT> extends AbstractRichFunction {

    private static final long serialVersionUID = 1L;

    /** Emits the results of joining {@code left} with {@code right} into {@code out}. */
    public abstract void processElement(IN1 left, IN2 right, Context ctx, Collector<OUT> out) throws Exception;

    /** The timestamps of the pair being processed, and side outputs. */
    public abstract class Context {

        /** The timestamp of the left element. */
        public abstract long getLeftTimestamp();

        /** The timestamp of the right element. */
        public abstract long getRightTimestamp();

        /** The timestamp of the joined pair: the larger of the two. */
        public abstract long getTimestamp();

        /** Emits {@code value} to the side output {@code outputTag}, with the pair's timestamp. */
        public abstract <X> void output(OutputTag<X> outputTag, X value);
    }
}
