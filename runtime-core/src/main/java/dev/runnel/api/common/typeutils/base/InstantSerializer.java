package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.Instant;

/**
 * Serializes {@link Instant} as its epoch second (8 bytes) and nano of second (4 bytes).
 *
 * <p>Immutable values: {@link #copy(Instant)} returns its argument. Bytes that do not describe an
 * instant (a nano outside 0..999,999,999, a second beyond {@link Instant#MAX}) fail as corrupt,
 * naming the position. Thread-safe singleton. Rejects null with a {@link NullPointerException}.
 */
public final class InstantSerializer extends TypeSerializerSingleton<Instant> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final InstantSerializer INSTANCE = new InstantSerializer();

    private InstantSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Instant createInstance() {
        return Instant.EPOCH;
    }

    @Override
    public Instant copy(Instant from) {
        return from;
    }

    @Override
    public int getLength() {
        return 12;
    }

    @Override
    public void serialize(Instant record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeLong(record.getEpochSecond());
        target.writeInt(record.getNano());
    }

    @Override
    public Instant deserialize(DataInputView source) throws IOException {
        int start = source.position();
        long seconds = source.readLong();
        int nanos = source.readInt();
        if (nanos < 0 || nanos > 999_999_999) {
            throw new CorruptDataException(String.format(
                    "Instant at position %s has nano-of-second %s, outside 0..999999999: the data is corrupt", start, nanos));
        }
        try {
            return Instant.ofEpochSecond(seconds, nanos);
        } catch (DateTimeException e) {
            throw new CorruptDataException(String.format("Instant at position %s: %s; the data is corrupt",
                    start, e.getMessage()), e);
        }
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
