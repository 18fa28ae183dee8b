package dev.runnel.api.common.accumulators;

/**
 * Sums double values; subtasks' sums are added together. The start value is 0 unless given to the
 * constructor. Not thread-safe: one instance per subtask, used on its task thread.
 */
public final class DoubleCounter implements SimpleAccumulator<Double> {

    private static final long serialVersionUID = 1L;

    private double localValue;

    public DoubleCounter() {}

    public DoubleCounter(double value) {
        this.localValue = value;
    }

    @Override
    public void add(Double value) {
        localValue += value;
    }

    /** Adds without boxing. */
    public void add(double value) {
        localValue += value;
    }

    @Override
    public Double getLocalValue() {
        return localValue;
    }

    /** The local sum without boxing (Flink's name). */
    public double getLocalValuePrimitive() {
        return localValue;
    }

    /** Same as {@link #getLocalValuePrimitive()}. */
    public double getDouble() {
        return localValue;
    }

    @Override
    public void resetLocal() {
        localValue = 0.0;
    }

    @Override
    public void merge(Accumulator<Double, Double> other) {
        localValue += other.getLocalValue();
    }

    @Override
    public DoubleCounter clone() {
        return new DoubleCounter(localValue);
    }

    @Override
    public String toString() {
        return "DoubleCounter " + localValue;
    }
}
