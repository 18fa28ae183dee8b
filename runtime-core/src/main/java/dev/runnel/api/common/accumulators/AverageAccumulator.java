package dev.runnel.api.common.accumulators;

/**
 * The mean of int, long or double values across all subtasks: merging adds the other side's count
 * and sum, so the merged result is the mean of every value, not a mean of means. With no values
 * the result is 0.0. Not thread-safe: one instance per subtask, used on its task thread.
 */
public final class AverageAccumulator implements SimpleAccumulator<Double> {

    private static final long serialVersionUID = 1L;

    private long count;
    private double sum;

    @Override
    public void add(Double value) {
        add(value.doubleValue());
    }

    public void add(double value) {
        count++;
        sum += value;
    }

    public void add(long value) {
        add((double) value);
    }

    public void add(int value) {
        add((double) value);
    }

    @Override
    public Double getLocalValue() {
        return count == 0 ? 0.0 : sum / count;
    }

    @Override
    public void resetLocal() {
        count = 0;
        sum = 0;
    }

    /** @throws IllegalArgumentException if {@code other} is not an {@link AverageAccumulator} */
    @Override
    public void merge(Accumulator<Double, Double> other) {
        if (!(other instanceof AverageAccumulator average)) {
            throw new IllegalArgumentException("The merged accumulator must be AverageAccumulator, but was "
                    + (other == null ? "null" : other.getClass().getName())
                    + ": register the same accumulator type under one name in every subtask.");
        }
        count += average.count;
        sum += average.sum;
    }

    @Override
    public AverageAccumulator clone() {
        AverageAccumulator copy = new AverageAccumulator();
        copy.count = count;
        copy.sum = sum;
        return copy;
    }

    @Override
    public String toString() {
        return "AverageAccumulator " + getLocalValue() + " for " + count + " elements";
    }
}
