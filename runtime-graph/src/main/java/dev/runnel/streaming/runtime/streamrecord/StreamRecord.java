package dev.runnel.streaming.runtime.streamrecord;

/**
 * A record as operators see it: a value and, optionally, its event timestamp.
 *
 * <p>A mutable holder. Inputs reuse one instance for all records they deliver, and one-to-one
 * operators {@link #replace(Object) replace} the value in place before passing it on. A user function's
 * collector gives each value a record of its own, which the JIT removes when the chain after it is compiled
 * as one unit (see {@code TimestampedCollector}). Either way an operator must not keep a {@code StreamRecord}
 * beyond the call that received it; keep the value instead. An operator that can run chained after another
 * keeps the record's timestamp rather than the record, even during the call: a record in a field would keep
 * the JIT from removing it and its value. Task thread only.
 *
 * @param <T> the value type
 */
public final class StreamRecord<T> {

    private T value;
    private long timestamp;
    private boolean hasTimestamp;

    public StreamRecord(T value) {
        this.value = value;
    }

    public StreamRecord(T value, long timestamp) {
        this.value = value;
        this.timestamp = timestamp;
        this.hasTimestamp = true;
    }

    public T getValue() {
        return value;
    }

    /** The event timestamp; {@code Long.MIN_VALUE} when the record has none. */
    public long getTimestamp() {
        return hasTimestamp ? timestamp : Long.MIN_VALUE;
    }

    public boolean hasTimestamp() {
        return hasTimestamp;
    }

    /** Puts {@code newValue} in this holder, keeping the timestamp; returns this holder, retyped. */
    @SuppressWarnings("unchecked")
    public <X> StreamRecord<X> replace(X newValue) {
        this.value = (T) newValue;
        return (StreamRecord<X>) this;
    }

    /** Puts {@code newValue} and {@code newTimestamp} in this holder. */
    @SuppressWarnings("unchecked")
    public <X> StreamRecord<X> replace(X newValue, long newTimestamp) {
        this.value = (T) newValue;
        this.timestamp = newTimestamp;
        this.hasTimestamp = true;
        return (StreamRecord<X>) this;
    }

    /**
     * Sets value and timestamp from the transport form, where {@code Long.MIN_VALUE} means no
     * timestamp.
     */
    @SuppressWarnings("unchecked")
    public <X> StreamRecord<X> replaceFromTransport(X newValue, long transportTimestamp) {
        this.value = (T) newValue;
        this.timestamp = transportTimestamp;
        this.hasTimestamp = transportTimestamp != Long.MIN_VALUE;
        return (StreamRecord<X>) this;
    }

    public void setTimestamp(long timestamp) {
        this.timestamp = timestamp;
        this.hasTimestamp = true;
    }

    public void eraseTimestamp() {
        this.hasTimestamp = false;
    }

    /** The timestamp in transport form ({@code Long.MIN_VALUE} for none). */
    public long transportTimestamp() {
        return hasTimestamp ? timestamp : Long.MIN_VALUE;
    }

    /** A new holder with {@code newValue} and this record's timestamp. */
    public <X> StreamRecord<X> copy(X newValue) {
        StreamRecord<X> copy = new StreamRecord<>(newValue);
        copy.timestamp = timestamp;
        copy.hasTimestamp = hasTimestamp;
        return copy;
    }

    /** Equal when value, timestamp and whether there is a timestamp are equal (as Flink's; for tests). */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof StreamRecord<?> other)) {
            return false;
        }
        return hasTimestamp == other.hasTimestamp && (!hasTimestamp || timestamp == other.timestamp)
                && java.util.Objects.equals(value, other.value);
    }

    @Override
    public int hashCode() {
        int result = java.util.Objects.hashCode(value);
        return hasTimestamp ? 31 * result + Long.hashCode(timestamp) : result;
    }

    @Override
    public String toString() {
        return "Record @ " + (hasTimestamp ? Long.toString(timestamp) : "(undef)") + " : " + value;
    }
}
