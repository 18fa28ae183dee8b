package dev.runnel.api.common.accumulators;

/**
 * Finds the maximum of long values across all subtasks. Starts at {@code Long.MIN_VALUE}, the identity of {@code Math.max},
 * so an accumulator that saw no value reports {@code Long.MIN_VALUE}. Not thread-safe: one instance per subtask,
 * used on its task thread.
 */
public final class LongMaximum implements SimpleAccumulator<Long> {

    private static final long serialVersionUID = 1L;

    private long value = Long.MIN_VALUE;

    public LongMaximum() {}

    /** Starts from {@code value} instead of {@code Long.MIN_VALUE}. */
    public LongMaximum(long value) {
        this.value = value;
    }

    @Override
    public void add(Long value) {
        add(value.longValue());
    }

    /** Adds without boxing. */
    public void add(long value) {
        this.value = Math.max(this.value, value);
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
        value = Long.MIN_VALUE;
    }

    @Override
    public void merge(Accumulator<Long, Long> other) {
        value = Math.max(value, other.getLocalValue());
    }

    @Override
    public LongMaximum clone() {
        return new LongMaximum(value);
    }

    @Override
    public String toString() {
        return "LongMaximum " + value;
    }
}
