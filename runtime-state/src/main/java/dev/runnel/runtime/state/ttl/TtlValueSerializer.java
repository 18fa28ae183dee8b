package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.runtime.state.snapshot.format.SerializerIdentity;
import java.io.IOException;
import java.util.Objects;

/**
 * Serializes a {@link TtlValue}: the 8-byte big-endian last-access timestamp first, then a presence
 * byte (1, or 0 for a null user value), then the user value. The timestamp comes first so that a
 * store holding serialized values (RocksDB) can tell an expired entry from its first 8 bytes
 * ({@link #readTimestamp}) without decoding the value.
 *
 * <p>Thread-safe if the user-value serializer is (which the {@link TypeSerializer} contract requires).
 *
 * @param <T> the user value type
 */
public final class TtlValueSerializer<T> extends TypeSerializer<TtlValue<T>> {

    private static final long serialVersionUID = 1L;

    private final TypeSerializer<T> userValueSerializer;

    public TtlValueSerializer(TypeSerializer<T> userValueSerializer) {
        this.userValueSerializer = Objects.requireNonNull(userValueSerializer, "userValueSerializer");
    }

    public TypeSerializer<T> getUserValueSerializer() {
        return userValueSerializer;
    }

    /** The last-access timestamp of a serialized TTL value starting at {@code offset}. */
    public static long readTimestamp(byte[] bytes, int offset) {
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (bytes[offset + i] & 0xFF);
        }
        return v;
    }

    @Override
    public boolean isImmutableType() {
        return userValueSerializer.isImmutableType();
    }

    @Override
    public TtlValue<T> createInstance() {
        return new TtlValue<>(userValueSerializer.createInstance(), Long.MIN_VALUE);
    }

    @Override
    public TtlValue<T> copy(TtlValue<T> from) {
        T value = from.getUserValue();
        return new TtlValue<>(value == null ? null : userValueSerializer.copy(value), from.getLastAccessTimestamp());
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(TtlValue<T> record, DataOutputView target) throws IOException {
        target.writeLong(record.getLastAccessTimestamp());
        T value = record.getUserValue();
        if (value == null) {
            target.writeByte(0);
        } else {
            target.writeByte(1);
            userValueSerializer.serialize(value, target);
        }
    }

    @Override
    public TtlValue<T> deserialize(DataInputView source) throws IOException {
        long timestamp = source.readLong();
        int presence = source.readUnsignedByte();
        if (presence == 0) {
            return new TtlValue<>(null, timestamp);
        }
        if (presence != 1) {
            throw new CorruptDataException("TTL value at position " + (source.position() - 1)
                    + " has presence byte " + presence + " (expected 0 or 1)");
        }
        return new TtlValue<>(userValueSerializer.deserialize(source), timestamp);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof TtlValueSerializer<?> other && userValueSerializer.equals(other.userValueSerializer);
    }

    @Override
    public int hashCode() {
        return 31 * TtlValueSerializer.class.getName().hashCode() + userValueSerializer.hashCode();
    }

    /** Names the user-value serializer by its {@link SerializerIdentity}, so snapshot identities are stable. */
    @Override
    public String toString() {
        return "TtlValueSerializer<" + SerializerIdentity.of(userValueSerializer) + ">";
    }
}
