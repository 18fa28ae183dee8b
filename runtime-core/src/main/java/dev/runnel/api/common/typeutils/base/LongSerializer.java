package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@link Long} as 8 big-endian bytes (two's complement), so the byte order of non-negative values is their numeric order.
 *
 * <p>Thread-safe singleton. Rejects null with a {@link NullPointerException}.
 */
public final class LongSerializer extends TypeSerializerSingleton<Long> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final LongSerializer INSTANCE = new LongSerializer();

    private static final Long ZERO = 0L;

    private LongSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Long createInstance() {
        return ZERO;
    }

    @Override
    public Long copy(Long from) {
        return from;
    }

    @Override
    public int getLength() {
        return 8;
    }

    @Override
    public void serialize(Long record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeLong(record);
    }

    @Override
    public Long deserialize(DataInputView source) throws IOException {
        return source.readLong();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
