package dev.runnel.api.common.accumulators;

/**
 * Finds the minimum of long values across all subtasks. Starts at {@code Long.MAX_VALUE}, the identity of {@code Math.min},
 * so an accumulator that saw no value reports {@code Long.MAX_VALUE}. Not thread-safe: one instance per subtask,
 * used on its task thread.
 */
public final class LongMinimum implements SimpleAccumulator<Long> {

    private static final long serialVersionUID = 1L;

    private long value = Long.MAX_VALUE;

    public LongMinimum() {}

    /** Starts from {@code value} instead of {@code Long.MAX_VALUE}. */
    public LongMinimum(long value) {
        this.value = value;
    }

    @Override
    public void add(Long value) {
        add(value.longValue());
    }

    /** Adds without boxing. */
    public void add(long value) {
        this.value = Math.min(this.value, value);
    }

    @Override
    public Long getLocalValue() {
        return value;
    }

    /** The local result without boxing. */
    public long getLocalValuePrimitive() {
        return value;
    }

    @Override
    public void resetLocal() {
        value = Long.MAX_VALUE;
    }

    @Override
    public void merge(Accumulator<Long, Long> other) {
        value = Math.min(value, other.getLocalValue());
    }

    @Override
    public LongMinimum clone() {
        return new LongMinimum(value);
    }

    @Override
    public String toString() {
        return "LongMinimum " + value;
    }
}
