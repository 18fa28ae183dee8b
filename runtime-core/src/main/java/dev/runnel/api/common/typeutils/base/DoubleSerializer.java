package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@link Double} as the 8 big-endian bytes of its raw IEEE 754 bits, so every value round-trips bit for bit (-0.0, and NaN with its payload).
 *
 * <p>Thread-safe singleton. Rejects null with a {@link NullPointerException}.
 */
public final class DoubleSerializer extends TypeSerializerSingleton<Double> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final DoubleSerializer INSTANCE = new DoubleSerializer();

    private static final Double ZERO = 0.0d;

    private DoubleSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Double createInstance() {
        return ZERO;
    }

    @Override
    public Double copy(Double from) {
        return from;
    }

    @Override
    public int getLength() {
        return 8;
    }

    @Override
    public void serialize(Double record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeDouble(record);
    }

    @Override
    public Double deserialize(DataInputView source) throws IOException {
        return source.readDouble();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
