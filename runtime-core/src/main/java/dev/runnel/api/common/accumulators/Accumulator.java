package dev.runnel.api.common.accumulators;

import java.io.Serializable;

/**
 * A value each subtask adds to locally and the runtime merges across subtasks when the job ends;
 * read from {@code JobExecutionResult#getAccumulatorResult(name)}. Task thread only while running.
 *
 * @param <V> the type of the values added
 * @param <R> the type of the (merged) result
 */
public interface Accumulator<V, R extends Serializable> extends Serializable, Cloneable {

    void add(V value);

    R getLocalValue();

    void resetLocal();

    /** Adds {@code other}'s value to this one. */
    void merge(Accumulator<V, R> other);

    Accumulator<V, R> clone();
}
