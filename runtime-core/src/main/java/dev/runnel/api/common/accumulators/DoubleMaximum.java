package dev.runnel.api.common.accumulators;

/**
 * Finds the maximum of double values across all subtasks. Starts at {@code Double.NEGATIVE_INFINITY}, the identity of {@code Math.max},
 * so an accumulator that saw no value reports {@code Double.NEGATIVE_INFINITY}. Not thread-safe: one instance per subtask,
 * used on its task thread.
 */
public final class DoubleMaximum implements SimpleAccumulator<Double> {

    private static final long serialVersionUID = 1L;

    private double value = Double.NEGATIVE_INFINITY;

    public DoubleMaximum() {}

    /** Starts from {@code value} instead of {@code Double.NEGATIVE_INFINITY}. */
    public DoubleMaximum(double value) {
        this.value = value;
    }

    @Override
    public void add(Double value) {
        add(value.doubleValue());
    }

    /** Adds without boxing. */
    public void add(double value) {
        this.value = Math.max(this.value, value);
    }

    @Override
    public Double getLocalValue() {
        return value;
    }

    /** The local result without boxing. */
    public double getLocalValuePrimitive() {
        return value;
    }

    @Override
    public void resetLocal() {
        value = Double.NEGATIVE_INFINITY;
    }

    @Override
    public void merge(Accumulator<Double, Double> other) {
        value = Math.max(value, other.getLocalValue());
    }

    @Override
    public DoubleMaximum clone() {
        return new DoubleMaximum(value);
    }

    @Override
    public String toString() {
        return "DoubleMaximum " + value;
    }
}
