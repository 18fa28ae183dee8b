package dev.runnel.api.common.accumulators;

/**
 * Sums long values; subtasks' sums are added together. The start value is 0 unless given to the
 * constructor. Not thread-safe: one instance per subtask, used on its task thread.
 */
public final class LongCounter implements SimpleAccumulator<Long> {

    private static final long serialVersionUID = 1L;

    private long localValue;

    public LongCounter() {}

    public LongCounter(long value) {
        this.localValue = value;
    }

    @Override
    public void add(Long value) {
        localValue += value;
    }

    /** Adds without boxing. */
    public void add(long value) {
        localValue += value;
    }

    @Override
    public Long getLocalValue() {
        return localValue;
    }

    /** The local sum without boxing (Flink's name). */
    public long getLocalValuePrimitive() {
        return localValue;
    }

    /** Same as {@link #getLocalValuePrimitive()}. */
    public long getLong() {
        return localValue;
    }

    @Override
    public void resetLocal() {
        localValue = 0L;
    }

    @Override
    public void merge(Accumulator<Long, Long> other) {
        localValue += other.getLocalValue();
    }

    @Override
    public LongCounter clone() {
        return new LongCounter(localValue);
    }

    @Override
    public String toString() {
        return "LongCounter " + localValue;
    }
}
