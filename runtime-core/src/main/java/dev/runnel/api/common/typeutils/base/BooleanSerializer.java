package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@link Boolean} as one byte, 1 or 0. Any other byte is rejected as corrupt rather than
 * read as true, so damaged data is noticed where it is read.
 *
 * <p>Thread-safe singleton. Rejects null with a {@link NullPointerException}.
 */
public final class BooleanSerializer extends TypeSerializerSingleton<Boolean> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final BooleanSerializer INSTANCE = new BooleanSerializer();

    private BooleanSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Boolean createInstance() {
        return Boolean.FALSE;
    }

    @Override
    public Boolean copy(Boolean from) {
        return from;
    }

    @Override
    public int getLength() {
        return 1;
    }

    @Override
    public void serialize(Boolean record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeByte(record ? 1 : 0);
    }

    @Override
    public Boolean deserialize(DataInputView source) throws IOException {
        byte b = source.readByte();
        if (b == 1) {
            return Boolean.TRUE;
        }
        if (b == 0) {
            return Boolean.FALSE;
        }
        throw new CorruptDataException(String.format(
                "boolean at position %s is the byte %s, expected 0 or 1: the data is corrupt",
                source.position() - 1, b));
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
