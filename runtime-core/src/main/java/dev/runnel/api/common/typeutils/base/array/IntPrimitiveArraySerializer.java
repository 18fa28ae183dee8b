package dev.runnel.api.common.typeutils.base.array;

import dev.runnel.api.common.typeutils.base.TypeSerializerSingleton;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@code int[]} as a variable-length count followed by the elements, four bytes each, big-endian.
 *
 * <p>Arrays are mutable, so {@link #copy(int[])} returns a new array; the reuse variants fill an
 * array of exactly the right length instead of allocating. A count larger than the bytes left fails
 * as corrupt before anything is allocated. Thread-safe singleton. Rejects null with a
 * {@link NullPointerException}.
 */
public final class IntPrimitiveArraySerializer extends TypeSerializerSingleton<int[]> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final IntPrimitiveArraySerializer INSTANCE = new IntPrimitiveArraySerializer();

    private static final int[] EMPTY = new int[0];

    private IntPrimitiveArraySerializer() {}

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public int[] createInstance() {
        // Zero-length arrays cannot be mutated, so sharing one is safe.
        return EMPTY;
    }

    @Override
    public int[] copy(int[] from) {
        return from.clone();
    }

    @Override
    public int[] copy(int[] from, int[] reuse) {
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
    public void serialize(int[] record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeVarInt(record.length);
        for (int i = 0; i < record.length; i++) {
            target.writeInt(record[i]);
        }
    }

    @Override
    public int[] deserialize(DataInputView source) throws IOException {
        return deserialize(null, source);
    }

    @Override
    public int[] deserialize(int[] reuse, DataInputView source) throws IOException {
        int length = source.readLength("int[]", 4);
        int[] array = reuse != null && reuse.length == length ? reuse : length == 0 ? EMPTY : new int[length];
        for (int i = 0; i < length; i++) {
            array[i] = source.readInt();
        }
        return array;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
