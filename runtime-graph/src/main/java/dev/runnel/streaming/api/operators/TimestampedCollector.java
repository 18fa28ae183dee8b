package dev.runnel.streaming.api.operators;

import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.Collector;

/**
 * A {@link Collector} for user functions that wraps each value in a record carrying the timestamp the
 * operator set (the input's, or the timer's). Task thread only.
 *
 * <p>Each value gets a new record, not one reused holder: a holder that outlives the call would keep every
 * value put in it reachable from the heap, so the JIT could never remove the allocation of a value that the
 * rest of the chain only reads (a {@code Tuple2} the user's function builds for a sink that sums a field).
 * With the chain compiled as one unit, the record and such a value cost no allocation at all; where it is
 * not, the record is one short-lived object.
 */
public final class TimestampedCollector<T> implements Collector<T> {

    private final Output<T> output;
    private long timestamp;
    private boolean hasTimestamp;

    public TimestampedCollector(Output<T> output) {
        this.output = output;
    }

    @Override
    public void collect(T record) {
        output.collect(record(record));
    }

    /** {@code value} in a new record with the timestamp outputs carry now; side outputs are made with it too. */
    public <X> StreamRecord<X> record(X value) {
        StreamRecord<X> record = new StreamRecord<>(value);
        if (hasTimestamp) {
            record.setTimestamp(timestamp);
        }
        return record;
    }

    /** The timestamp outputs carry now, or null for none: what a function's context reports. */
    public Long timestamp() {
        return hasTimestamp ? timestamp : null;
    }

    /** Outputs carry the timestamp of {@code timestampBase} (or none if it has none). */
    public void setTimestamp(StreamRecord<?> timestampBase) {
        timestamp = timestampBase.getTimestamp();
        hasTimestamp = timestampBase.hasTimestamp();
    }

    public void setAbsoluteTimestamp(long timestamp) {
        this.timestamp = timestamp;
        this.hasTimestamp = true;
    }

    public void eraseTimestamp() {
        hasTimestamp = false;
    }

    @Override
    public void close() {
        output.close();
    }
}
