package dev.runnel.api.common.typeutils.base.array;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.api.common.typeutils.base.TypeSerializerSingleton;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@code boolean[]} as a variable-length count followed by the elements, one byte each, 0 or 1 (any other byte is corrupt data).
 *
 * <p>Arrays are mutable, so {@link #copy(boolean[])} returns a new array; the reuse variants fill an
 * array of exactly the right length instead of allocating. A count larger than the bytes left fails
 * as corrupt before anything is allocated. Thread-safe singleton. Rejects null with a
 * {@link NullPointerException}.
 */
public final class BooleanPrimitiveArraySerializer extends TypeSerializerSingleton<boolean[]> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final BooleanPrimitiveArraySerializer INSTANCE = new BooleanPrimitiveArraySerializer();

    private static final boolean[] EMPTY = new boolean[0];

    private BooleanPrimitiveArraySerializer() {}

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public boolean[] createInstance() {
        // Zero-length arrays cannot be mutated, so sharing one is safe.
        return EMPTY;
    }

    @Override
    public boolean[] copy(boolean[] from) {
        return from.clone();
    }

    @Override
    public boolean[] copy(boolean[] from, boolean[] reuse) {
        if (reuse != null && reuse.length == from.length) {
            System.arraycopy(from, 0, reuse, 0, from.length);
            return reuse;
        }
        return from.clone();
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(boolean[] record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeVarInt(record.length);
        for (int i = 0; i < record.length; i++) {
            target.writeByte(record[i] ? 1 : 0);
        }
    }

    @Override
    public boolean[] deserialize(DataInputView source) throws IOException {
        return deserialize(null, source);
    }

    @Override
    public boolean[] deserialize(boolean[] reuse, DataInputView source) throws IOException {
        int length = source.readLength("boolean[]", 1);
        boolean[] array = reuse != null && reuse.length == length ? reuse : length == 0 ? EMPTY : new boolean[length];
        for (int i = 0; i < length; i++) {
            array[i] = readBoolean(source);
        }
        return array;
    }

    private static boolean readBoolean(DataInputView source) throws IOException {
        byte b = source.readByte();
        if (b == 0 || b == 1) {
            return b == 1;
        }
        throw new CorruptDataException(String.format(
                "boolean[] element at position %s is the byte %s, expected 0 or 1: the data is corrupt",
                source.position() - 1, b));
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
