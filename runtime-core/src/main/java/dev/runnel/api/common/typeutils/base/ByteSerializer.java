package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@link Byte} as one byte.
 *
 * <p>Thread-safe singleton. Rejects null with a {@link NullPointerException}.
 */
public final class ByteSerializer extends TypeSerializerSingleton<Byte> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final ByteSerializer INSTANCE = new ByteSerializer();

    private static final Byte ZERO = (byte) 0;

    private ByteSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Byte createInstance() {
        return ZERO;
    }

    @Override
    public Byte copy(Byte from) {
        return from;
    }

    @Override
    public int getLength() {
        return 1;
    }

    @Override
    public void serialize(Byte record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeByte(record);
    }

    @Override
    public Byte deserialize(DataInputView source) throws IOException {
        return source.readByte();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
