package dev.runnel.api.common.accumulators;

/**
 * Finds the minimum of double values across all subtasks. Starts at {@code Double.POSITIVE_INFINITY}, the identity of {@code Math.min},
 * so an accumulator that saw no value reports {@code Double.POSITIVE_INFINITY}. Not thread-safe: one instance per subtask,
 * used on its task thread.
 */
public final class DoubleMinimum implements SimpleAccumulator<Double> {

    private static final long serialVersionUID = 1L;

    private double value = Double.POSITIVE_INFINITY;

    public DoubleMinimum() {}

    /** Starts from {@code value} instead of {@code Double.POSITIVE_INFINITY}. */
    public DoubleMinimum(double value) {
        this.value = value;
    }

    @Override
    public void add(Double value) {
        add(value.doubleValue());
    }

    /** Adds without boxing. */
    public void add(double value) {
        this.value = Math.min(this.value, value);
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
        value = Double.POSITIVE_INFINITY;
    }

    @Override
    public void merge(Accumulator<Double, Double> other) {
        value = Math.min(value, other.getLocalValue());
    }

    @Override
    public DoubleMinimum clone() {
        return new DoubleMinimum(value);
    }

    @Override
    public String toString() {
        return "DoubleMinimum " + value;
    }
}
