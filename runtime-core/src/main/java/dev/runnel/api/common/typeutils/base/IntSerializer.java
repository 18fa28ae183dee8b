package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@link Integer} as 4 big-endian bytes (two's complement), so the byte order of non-negative values is their numeric order.
 *
 * <p>Thread-safe singleton. Rejects null with a {@link NullPointerException}.
 */
public final class IntSerializer extends TypeSerializerSingleton<Integer> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final IntSerializer INSTANCE = new IntSerializer();

    private static final Integer ZERO = 0;

    private IntSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Integer createInstance() {
        return ZERO;
    }

    @Override
    public Integer copy(Integer from) {
        return from;
    }

    @Override
    public int getLength() {
        return 4;
    }

    @Override
    public void serialize(Integer record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeInt(record);
    }

    @Override
    public Integer deserialize(DataInputView source) throws IOException {
        return source.readInt();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
