package dev.runnel.api.common.accumulators;

/**
 * Finds the maximum of int values across all subtasks. Starts at {@code Integer.MIN_VALUE}, the identity of {@code Math.max},
 * so an accumulator that saw no value reports {@code Integer.MIN_VALUE}. Not thread-safe: one instance per subtask,
 * used on its task thread.
 */
public final class IntMaximum implements SimpleAccumulator<Integer> {

    private static final long serialVersionUID = 1L;

    private int value = Integer.MIN_VALUE;

    public IntMaximum() {}

    /** Starts from {@code value} instead of {@code Integer.MIN_VALUE}. */
    public IntMaximum(int value) {
        this.value = value;
    }

    @Override
    public void add(Integer value) {
        add(value.intValue());
    }

    /** Adds without boxing. */
    public void add(int value) {
        this.value = Math.max(this.value, value);
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
        value = Integer.MIN_VALUE;
    }

    @Override
    public void merge(Accumulator<Integer, Integer> other) {
        value = Math.max(value, other.getLocalValue());
    }

    @Override
    public IntMaximum clone() {
        return new IntMaximum(value);
    }

    @Override
    public String toString() {
        return "IntMaximum " + value;
    }
}
