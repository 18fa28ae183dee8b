package dev.runnel.api.common.accumulators;

/**
 * Sums int values; subtasks' sums are added together. The start value is 0 unless given to the
 * constructor. Not thread-safe: one instance per subtask, used on its task thread.
 */
public final class IntCounter implements SimpleAccumulator<Integer> {

    private static final long serialVersionUID = 1L;

    private int localValue;

    public IntCounter() {}

    public IntCounter(int value) {
        this.localValue = value;
    }

    @Override
    public void add(Integer value) {
        localValue += value;
    }

    /** Adds without boxing. */
    public void add(int value) {
        localValue += value;
    }

    @Override
    public Integer getLocalValue() {
        return localValue;
    }

    /** The local sum without boxing (Flink's name). */
    public int getLocalValuePrimitive() {
        return localValue;
    }

    /** Same as {@link #getLocalValuePrimitive()}. */
    public int getInt() {
        return localValue;
    }

    @Override
    public void resetLocal() {
        localValue = 0;
    }

    @Override
    public void merge(Accumulator<Integer, Integer> other) {
        localValue += other.getLocalValue();
    }

    @Override
    public IntCounter clone() {
        return new IntCounter(localValue);
    }

    @Override
    public String toString() {
        return "IntCounter " + localValue;
    }
}
