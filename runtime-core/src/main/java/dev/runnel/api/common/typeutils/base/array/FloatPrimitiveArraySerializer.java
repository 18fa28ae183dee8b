package dev.runnel.api.common.typeutils.base.array;

import dev.runnel.api.common.typeutils.base.TypeSerializerSingleton;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@code float[]} as a variable-length count followed by the elements, their IEEE 754 bits, four bytes each (NaN payloads survive).
 *
 * <p>Arrays are mutable, so {@link #copy(float[])} returns a new array; the reuse variants fill an
 * array of exactly the right length instead of allocating. A count larger than the bytes left fails
 * as corrupt before anything is allocated. Thread-safe singleton. Rejects null with a
 * {@link NullPointerException}.
 */
public final class FloatPrimitiveArraySerializer extends TypeSerializerSingleton<float[]> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final FloatPrimitiveArraySerializer INSTANCE = new FloatPrimitiveArraySerializer();

    private static final float[] EMPTY = new float[0];

    private FloatPrimitiveArraySerializer() {}

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public float[] createInstance() {
        // Zero-length arrays cannot be mutated, so sharing one is safe.
        return EMPTY;
    }

    @Override
    public float[] copy(float[] from) {
        return from.clone();
    }

    @Override
    public float[] copy(float[] from, float[] reuse) {
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
    public void serialize(float[] record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeVarInt(record.length);
        for (int i = 0; i < record.length; i++) {
            target.writeFloat(record[i]);
        }
    }

    @Override
    public float[] deserialize(DataInputView source) throws IOException {
        return deserialize(null, source);
    }

    @Override
    public float[] deserialize(float[] reuse, DataInputView source) throws IOException {
        int length = source.readLength("float[]", 4);
        float[] array = reuse != null && reuse.length == length ? reuse : length == 0 ? EMPTY : new float[length];
        for (int i = 0; i < length; i++) {
            array[i] = source.readFloat();
        }
        return array;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
