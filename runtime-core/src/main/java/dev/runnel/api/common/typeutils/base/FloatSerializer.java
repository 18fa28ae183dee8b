package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@link Float} as the 4 big-endian bytes of its raw IEEE 754 bits, so every value round-trips bit for bit (-0.0, and NaN with its payload).
 *
 * <p>Thread-safe singleton. Rejects null with a {@link NullPointerException}.
 */
public final class FloatSerializer extends TypeSerializerSingleton<Float> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final FloatSerializer INSTANCE = new FloatSerializer();

    private static final Float ZERO = 0.0f;

    private FloatSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Float createInstance() {
        return ZERO;
    }

    @Override
    public Float copy(Float from) {
        return from;
    }

    @Override
    public int getLength() {
        return 4;
    }

    @Override
    public void serialize(Float record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeFloat(record);
    }

    @Override
    public Float deserialize(DataInputView source) throws IOException {
        return source.readFloat();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
