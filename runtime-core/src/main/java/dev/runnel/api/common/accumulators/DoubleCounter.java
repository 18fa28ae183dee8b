package dev.runnel.api.common.accumulators;

/** Sums double values. */
public final class DoubleCounter implements Accumulator<Double, Double> {

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
