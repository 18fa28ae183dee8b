package dev.runnel.api.common.typeutils.base.array;

import dev.runnel.api.common.typeutils.base.TypeSerializerSingleton;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@code char[]} as a variable-length count followed by the elements, their UTF-16 code units, two bytes each.
 *
 * <p>Arrays are mutable, so {@link #copy(char[])} returns a new array; the reuse variants fill an
 * array of exactly the right length instead of allocating. A count larger than the bytes left fails
 * as corrupt before anything is allocated. Thread-safe singleton. Rejects null with a
 * {@link NullPointerException}.
 */
public final class CharPrimitiveArraySerializer extends TypeSerializerSingleton<char[]> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final CharPrimitiveArraySerializer INSTANCE = new CharPrimitiveArraySerializer();

    private static final char[] EMPTY = new char[0];

    private CharPrimitiveArraySerializer() {}

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public char[] createInstance() {
        // Zero-length arrays cannot be mutated, so sharing one is safe.
        return EMPTY;
    }

    @Override
    public char[] copy(char[] from) {
        return from.clone();
    }

    @Override
    public char[] copy(char[] from, char[] reuse) {
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
    public void serialize(char[] record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeVarInt(record.length);
        for (int i = 0; i < record.length; i++) {
            target.writeChar(record[i]);
        }
    }

    @Override
    public char[] deserialize(DataInputView source) throws IOException {
        return deserialize(null, source);
    }

    @Override
    public char[] deserialize(char[] reuse, DataInputView source) throws IOException {
        int length = source.readLength("char[]", 2);
        char[] array = reuse != null && reuse.length == length ? reuse : length == 0 ? EMPTY : new char[length];
        for (int i = 0; i < length; i++) {
            array[i] = source.readChar();
        }
        return array;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
