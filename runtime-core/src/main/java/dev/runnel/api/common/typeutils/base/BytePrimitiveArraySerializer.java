package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@code byte[]} as a variable-length count followed by the bytes.
 *
 * <p>Arrays are mutable, so {@link #copy(byte[])} returns a new array. Deserializing with a reused
 * array of exactly the right length fills that array instead of allocating. Thread-safe singleton.
 * Rejects null with a {@link NullPointerException}.
 */
public final class BytePrimitiveArraySerializer extends TypeSerializerSingleton<byte[]> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final BytePrimitiveArraySerializer INSTANCE = new BytePrimitiveArraySerializer();

    private static final byte[] EMPTY = new byte[0];

    private BytePrimitiveArraySerializer() {}

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public byte[] createInstance() {
        // Zero-length arrays cannot be mutated, so sharing one is safe.
        return EMPTY;
    }

    @Override
    public byte[] copy(byte[] from) {
        return from.clone();
    }

    @Override
    public byte[] copy(byte[] from, byte[] reuse) {
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
    public void serialize(byte[] record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeVarInt(record.length);
        target.write(record, 0, record.length);
    }

    @Override
    public byte[] deserialize(DataInputView source) throws IOException {
        int length = source.readLength("byte[]", 1);
        byte[] bytes = length == 0 ? EMPTY : new byte[length];
        source.readFully(bytes, 0, length);
        return bytes;
    }

    @Override
    public byte[] deserialize(byte[] reuse, DataInputView source) throws IOException {
        int length = source.readLength("byte[]", 1);
        byte[] bytes = reuse != null && reuse.length == length ? reuse : new byte[length];
        source.readFully(bytes, 0, length);
        return bytes;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
