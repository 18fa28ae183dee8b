package dev.runnel.streaming.api.operators;

import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.Collector;

/**
 * A {@link Collector} for user functions that wraps each value in one reused record carrying the
 * timestamp the operator set (the input's, or the timer's). Task thread only.
 */
public final class TimestampedCollector<T> implements Collector<T> {

    private final Output<T> output;
    private final StreamRecord<T> reuse = new StreamRecord<>(null);

    public TimestampedCollector(Output<T> output) {
        this.output = output;
    }

    @Override
    public void collect(T record) {
        output.collect(reuse.replace(record));
    }

    /** Outputs carry the timestamp of {@code timestampBase} (or none if it has none). */
    public void setTimestamp(StreamRecord<?> timestampBase) {
        reuse.replaceFromTransport(reuse.getValue(), timestampBase.transportTimestamp());
    }

    public void setAbsoluteTimestamp(long timestamp) {
        reuse.setTimestamp(timestamp);
    }

    public void eraseTimestamp() {
        reuse.eraseTimestamp();
    }

    @Override
    public void close() {
        output.close();
    }
}
