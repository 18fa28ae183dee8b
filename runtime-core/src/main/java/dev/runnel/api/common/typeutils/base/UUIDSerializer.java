package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.util.UUID;

/**
 * Serializes {@link UUID} as its most and then least significant 64 bits, 16 bytes. Flink has no
 * serializer for {@code UUID} (it goes to Kryo there); Runnel has one because Kryo 5 cannot read a
 * {@code UUID}'s private fields on Java 17 without opening {@code java.util}.
 *
 * <p>Immutable values: {@link #copy(UUID)} returns its argument. Thread-safe singleton. Rejects null
 * with a {@link NullPointerException}.
 */
public final class UUIDSerializer extends TypeSerializerSingleton<UUID> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final UUIDSerializer INSTANCE = new UUIDSerializer();

    private static final UUID ZERO = new UUID(0L, 0L);

    private UUIDSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public UUID createInstance() {
        return ZERO;
    }

    @Override
    public UUID copy(UUID from) {
        return from;
    }

    @Override
    public int getLength() {
        return 16;
    }

    @Override
    public void serialize(UUID record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeLong(record.getMostSignificantBits());
        target.writeLong(record.getLeastSignificantBits());
    }

    @Override
    public UUID deserialize(DataInputView source) throws IOException {
        return new UUID(source.readLong(), source.readLong());
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
