package dev.runnel.api.common.typeutils.base.array;

import dev.runnel.api.common.typeutils.base.TypeSerializerSingleton;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@code short[]} as a variable-length count followed by the elements, two bytes each, big-endian.
 *
 * <p>Arrays are mutable, so {@link #copy(short[])} returns a new array; the reuse variants fill an
 * array of exactly the right length instead of allocating. A count larger than the bytes left fails
 * as corrupt before anything is allocated. Thread-safe singleton. Rejects null with a
 * {@link NullPointerException}.
 */
public final class ShortPrimitiveArraySerializer extends TypeSerializerSingleton<short[]> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final ShortPrimitiveArraySerializer INSTANCE = new ShortPrimitiveArraySerializer();

    private static final short[] EMPTY = new short[0];

    private ShortPrimitiveArraySerializer() {}

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public short[] createInstance() {
        // Zero-length arrays cannot be mutated, so sharing one is safe.
        return EMPTY;
    }

    @Override
    public short[] copy(short[] from) {
        return from.clone();
    }

    @Override
    public short[] copy(short[] from, short[] reuse) {
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
    public void serialize(short[] record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeVarInt(record.length);
        for (int i = 0; i < record.length; i++) {
            target.writeShort(record[i]);
        }
    }

    @Override
    public short[] deserialize(DataInputView source) throws IOException {
        return deserialize(null, source);
    }

    @Override
    public short[] deserialize(short[] reuse, DataInputView source) throws IOException {
        int length = source.readLength("short[]", 2);
        short[] array = reuse != null && reuse.length == length ? reuse : length == 0 ? EMPTY : new short[length];
        for (int i = 0; i < length; i++) {
            array[i] = source.readShort();
        }
        return array;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
