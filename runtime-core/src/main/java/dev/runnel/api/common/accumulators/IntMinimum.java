package dev.runnel.api.common.accumulators;

/**
 * Finds the minimum of int values across all subtasks. Starts at {@code Integer.MAX_VALUE}, the identity of {@code Math.min},
 * so an accumulator that saw no value reports {@code Integer.MAX_VALUE}. Not thread-safe: one instance per subtask,
 * used on its task thread.
 */
public final class IntMinimum implements SimpleAccumulator<Integer> {

    private static final long serialVersionUID = 1L;

    private int value = Integer.MAX_VALUE;

    public IntMinimum() {}

    /** Starts from {@code value} instead of {@code Integer.MAX_VALUE}. */
    public IntMinimum(int value) {
        this.value = value;
    }

    @Override
    public void add(Integer value) {
        add(value.intValue());
    }

    /** Adds without boxing. */
    public void add(int value) {
        this.value = Math.min(this.value, value);
    }

    @Override
    public Integer getLocalValue() {
        return value;
    }

    /** The local result without boxing. */
    public int getLocalValuePrimitive() {
        return value;
    }

    @Override
    public void resetLocal() {
        value = Integer.MAX_VALUE;
    }

    @Override
    public void merge(Accumulator<Integer, Integer> other) {
        value = Math.min(value, other.getLocalValue());
    }

    @Override
    public IntMinimum clone() {
        return new IntMinimum(value);
    }

    @Override
    public String toString() {
        return "IntMinimum " + value;
    }
}
