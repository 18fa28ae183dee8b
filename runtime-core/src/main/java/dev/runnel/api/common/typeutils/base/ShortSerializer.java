package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@link Short} as 2 big-endian bytes (two's complement).
 *
 * <p>Thread-safe singleton. Rejects null with a {@link NullPointerException}.
 */
public final class ShortSerializer extends TypeSerializerSingleton<Short> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final ShortSerializer INSTANCE = new ShortSerializer();

    private static final Short ZERO = (short) 0;

    private ShortSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Short createInstance() {
        return ZERO;
    }

    @Override
    public Short copy(Short from) {
        return from;
    }

    @Override
    public int getLength() {
        return 2;
    }

    @Override
    public void serialize(Short record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeShort(record);
    }

    @Override
    public Short deserialize(DataInputView source) throws IOException {
        return source.readShort();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
