package dev.runnel.api.common.typeutils.base.array;

import dev.runnel.api.common.typeutils.base.TypeSerializerSingleton;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@code long[]} as a variable-length count followed by the elements, eight bytes each, big-endian.
 *
 * <p>Arrays are mutable, so {@link #copy(long[])} returns a new array; the reuse variants fill an
 * array of exactly the right length instead of allocating. A count larger than the bytes left fails
 * as corrupt before anything is allocated. Thread-safe singleton. Rejects null with a
 * {@link NullPointerException}.
 */
public final class LongPrimitiveArraySerializer extends TypeSerializerSingleton<long[]> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final LongPrimitiveArraySerializer INSTANCE = new LongPrimitiveArraySerializer();

    private static final long[] EMPTY = new long[0];

    private LongPrimitiveArraySerializer() {}

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public long[] createInstance() {
        // Zero-length arrays cannot be mutated, so sharing one is safe.
        return EMPTY;
    }

    @Override
    public long[] copy(long[] from) {
        return from.clone();
    }

    @Override
    public long[] copy(long[] from, long[] reuse) {
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
    public void serialize(long[] record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeVarInt(record.length);
        for (int i = 0; i < record.length; i++) {
            target.writeLong(record[i]);
        }
    }

    @Override
    public long[] deserialize(DataInputView source) throws IOException {
        return deserialize(null, source);
    }

    @Override
    public long[] deserialize(long[] reuse, DataInputView source) throws IOException {
        int length = source.readLength("long[]", 8);
        long[] array = reuse != null && reuse.length == length ? reuse : length == 0 ? EMPTY : new long[length];
        for (int i = 0; i < length; i++) {
            array[i] = source.readLong();
        }
        return array;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
