package dev.runnel.streaming.runtime.operators.windowing;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.io.IOException;
import java.util.Objects;

/**
 * An element of a window together with its timestamp, as evictors see it. Unlike a
 * {@link StreamRecord} it is not reused: an evicting window keeps these in its state.
 *
 * @param <T> the value type
 */
public final class TimestampedValue<T> {

    private final T value;
    private final long timestamp;
    private final boolean hasTimestamp;

    /** A value without a timestamp. */
    public TimestampedValue(T value) {
        this(value, 0, false);
    }

    public TimestampedValue(T value, long timestamp) {
        this(value, timestamp, true);
    }

    private TimestampedValue(T value, long timestamp, boolean hasTimestamp) {
        this.value = value;
        this.timestamp = timestamp;
        this.hasTimestamp = hasTimestamp;
    }

    /** The value and timestamp of {@code record} (which may be reused afterwards). */
    public static <T> TimestampedValue<T> from(StreamRecord<T> record) {
        return record.hasTimestamp() ? new TimestampedValue<>(record.getValue(), record.getTimestamp())
                : new TimestampedValue<>(record.getValue());
    }

    public T getValue() {
        return value;
    }

    /** The timestamp; fails if there is none (see {@link #hasTimestamp()}). */
    public long getTimestamp() {
        if (!hasTimestamp) {
            throw new IllegalStateException("Record has no timestamp. Did you forget to call "
                    + "DataStream.assignTimestampsAndWatermarks(...), or are the windows in processing time?");
        }
        return timestamp;
    }

    public boolean hasTimestamp() {
        return hasTimestamp;
    }

    /** A new stream record with this value and timestamp. */
    public StreamRecord<T> getStreamRecord() {
        return hasTimestamp ? new StreamRecord<>(value, timestamp) : new StreamRecord<>(value);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TimestampedValue<?> other && hasTimestamp == other.hasTimestamp
                && timestamp == other.timestamp && Objects.equals(value, other.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(value, timestamp, hasTimestamp);
    }

    @Override
    public String toString() {
        return "TimestampedValue(" + value + (hasTimestamp ? " @ " + timestamp : "") + ")";
    }

    /** Writes a presence flag, the timestamp if there is one, then the value. */
    public static final class Serializer<T> extends TypeSerializer<TimestampedValue<T>> {

        private static final long serialVersionUID = 1L;

        private final TypeSerializer<T> valueSerializer;

        public Serializer(TypeSerializer<T> valueSerializer) {
            this.valueSerializer = Objects.requireNonNull(valueSerializer, "valueSerializer");
        }

        @Override
        public boolean isImmutableType() {
            return valueSerializer.isImmutableType();
        }

        @Override
        public TimestampedValue<T> createInstance() {
            return null;
        }

        @Override
        public TimestampedValue<T> copy(TimestampedValue<T> from) {
            return valueSerializer.isImmutableType() ? from
                    : new TimestampedValue<>(valueSerializer.copy(from.value), from.timestamp, from.hasTimestamp);
        }

        @Override
        public int getLength() {
            return -1;
        }

        @Override
        public void serialize(TimestampedValue<T> record, DataOutputView target) throws IOException {
            target.writeBoolean(record.hasTimestamp);
            if (record.hasTimestamp) {
                target.writeLong(record.timestamp);
            }
            valueSerializer.serialize(record.value, target);
        }

        @Override
        public TimestampedValue<T> deserialize(DataInputView source) throws IOException {
            boolean hasTimestamp = source.readBoolean();
            long timestamp = hasTimestamp ? source.readLong() : 0;
            return new TimestampedValue<>(valueSerializer.deserialize(source), timestamp, hasTimestamp);
        }

        @Override
        public boolean equals(Object obj) {
            return obj instanceof Serializer<?> other && valueSerializer.equals(other.valueSerializer);
        }

        @Override
        public int hashCode() {
            return 31 * Serializer.class.getName().hashCode() + valueSerializer.hashCode();
        }

        @Override
        public String toString() {
            return "TimestampedValueSerializer<" + valueSerializer + ">";
        }
    }
}
