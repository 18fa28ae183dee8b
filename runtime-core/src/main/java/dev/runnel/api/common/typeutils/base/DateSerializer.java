package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.util.Date;

/**
 * Serializes {@link java.util.Date} as its milliseconds since the epoch, 8 bytes.
 *
 * <p>{@code Date} is mutable, so {@link #copy(Date)} returns a new instance, and the reuse variants
 * set the time on the given instance. Thread-safe singleton. Rejects null with a
 * {@link NullPointerException}.
 */
public final class DateSerializer extends TypeSerializerSingleton<Date> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final DateSerializer INSTANCE = new DateSerializer();

    private DateSerializer() {}

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public Date createInstance() {
        return new Date(0L);
    }

    @Override
    public Date copy(Date from) {
        return new Date(from.getTime());
    }

    @Override
    public Date copy(Date from, Date reuse) {
        if (reuse == null) {
            return copy(from);
        }
        reuse.setTime(from.getTime());
        return reuse;
    }

    @Override
    public int getLength() {
        return 8;
    }

    @Override
    public void serialize(Date record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeLong(record.getTime());
    }

    @Override
    public Date deserialize(DataInputView source) throws IOException {
        return new Date(source.readLong());
    }

    @Override
    public Date deserialize(Date reuse, DataInputView source) throws IOException {
        if (reuse == null) {
            return deserialize(source);
        }
        reuse.setTime(source.readLong());
        return reuse;
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
