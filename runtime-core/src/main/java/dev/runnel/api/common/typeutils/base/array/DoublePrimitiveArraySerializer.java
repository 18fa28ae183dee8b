package dev.runnel.api.common.typeutils.base.array;

import dev.runnel.api.common.typeutils.base.TypeSerializerSingleton;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@code double[]} as a variable-length count followed by the elements, their IEEE 754 bits, eight bytes each (NaN payloads survive).
 *
 * <p>Arrays are mutable, so {@link #copy(double[])} returns a new array; the reuse variants fill an
 * array of exactly the right length instead of allocating. A count larger than the bytes left fails
 * as corrupt before anything is allocated. Thread-safe singleton. Rejects null with a
 * {@link NullPointerException}.
 */
public final class DoublePrimitiveArraySerializer extends TypeSerializerSingleton<double[]> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final DoublePrimitiveArraySerializer INSTANCE = new DoublePrimitiveArraySerializer();

    private static final double[] EMPTY = new double[0];

    private DoublePrimitiveArraySerializer() {}

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public double[] createInstance() {
        // Zero-length arrays cannot be mutated, so sharing one is safe.
        return EMPTY;
    }

    @Override
    public double[] copy(double[] from) {
        return from.clone();
    }

    @Override
    public double[] copy(double[] from, double[] reuse) {
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
    public void serialize(double[] record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeVarInt(record.length);
        for (int i = 0; i < record.length; i++) {
            target.writeDouble(record[i]);
        }
    }

    @Override
    public double[] deserialize(DataInputView source) throws IOException {
        return deserialize(null, source);
    }

    @Override
    public double[] deserialize(double[] reuse, DataInputView source) throws IOException {
        int length = source.readLength("double[]", 8);
        double[] array = reuse != null && reuse.length == length ? reuse : length == 0 ? EMPTY : new double[length];
        for (int i = 0; i < length; i++) {
            array[i] = source.readDouble();
        }
        return array;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
