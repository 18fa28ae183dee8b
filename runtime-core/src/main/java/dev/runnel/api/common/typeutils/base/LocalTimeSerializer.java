package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.LocalTime;

/**
 * Serializes {@link LocalTime} as hour, minute, second (1 byte each) and nano of second (4 bytes).
 *
 * <p>Immutable values: {@link #copy(LocalTime)} returns its argument. Bytes that do not form a valid
 * time (hour 24, minute 60) fail as corrupt, naming the position. Thread-safe singleton. Rejects null
 * with a {@link NullPointerException}.
 */
public final class LocalTimeSerializer extends TypeSerializerSingleton<LocalTime> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final LocalTimeSerializer INSTANCE = new LocalTimeSerializer();

    private LocalTimeSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public LocalTime createInstance() {
        return LocalTime.MIDNIGHT;
    }

    @Override
    public LocalTime copy(LocalTime from) {
        return from;
    }

    @Override
    public int getLength() {
        return 7;
    }

    @Override
    public void serialize(LocalTime record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        writeTime(record, target);
    }

    @Override
    public LocalTime deserialize(DataInputView source) throws IOException {
        return readTime(source, "LocalTime");
    }

    /** Writes the 7 bytes of {@code time}; shared with {@link LocalDateTimeSerializer}. */
    static void writeTime(LocalTime time, DataOutputView target) throws IOException {
        target.writeByte(time.getHour());
        target.writeByte(time.getMinute());
        target.writeByte(time.getSecond());
        target.writeInt(time.getNano());
    }

    /** Reads what {@link #writeTime} wrote; {@code what} names the value in error messages. */
    static LocalTime readTime(DataInputView source, String what) throws IOException {
        int start = source.position();
        int hour = source.readByte();
        int minute = source.readByte();
        int second = source.readByte();
        int nano = source.readInt();
        try {
            return LocalTime.of(hour, minute, second, nano);
        } catch (DateTimeException e) {
            throw new CorruptDataException(String.format("%s at position %s is not a valid time (%s); the data is corrupt",
                    what, start, e.getMessage()), e);
        }
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
