package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.time.DateTimeException;
import java.time.LocalDate;

/**
 * Serializes {@link LocalDate} as year (4 bytes), month and day of month (1 byte each).
 *
 * <p>Immutable values: {@link #copy(LocalDate)} returns its argument. Bytes that do not form a valid
 * date (month 13, February 30th) fail as corrupt, naming the position. Thread-safe singleton. Rejects
 * null with a {@link NullPointerException}.
 */
public final class LocalDateSerializer extends TypeSerializerSingleton<LocalDate> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final LocalDateSerializer INSTANCE = new LocalDateSerializer();

    private LocalDateSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public LocalDate createInstance() {
        return LocalDate.EPOCH;
    }

    @Override
    public LocalDate copy(LocalDate from) {
        return from;
    }

    @Override
    public int getLength() {
        return 6;
    }

    @Override
    public void serialize(LocalDate record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        writeDate(record, target);
    }

    @Override
    public LocalDate deserialize(DataInputView source) throws IOException {
        return readDate(source, "LocalDate");
    }

    /** Writes the 6 bytes of {@code date}; shared with {@link LocalDateTimeSerializer}. */
    static void writeDate(LocalDate date, DataOutputView target) throws IOException {
        target.writeInt(date.getYear());
        target.writeByte(date.getMonthValue());
        target.writeByte(date.getDayOfMonth());
    }

    /** Reads what {@link #writeDate} wrote; {@code what} names the value in error messages. */
    static LocalDate readDate(DataInputView source, String what) throws IOException {
        int start = source.position();
        int year = source.readInt();
        int month = source.readByte();
        int day = source.readByte();
        try {
            return LocalDate.of(year, month, day);
        } catch (DateTimeException e) {
            throw new CorruptDataException(String.format("%s at position %s is not a valid date (%s); the data is corrupt",
                    what, start, e.getMessage()), e);
        }
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
