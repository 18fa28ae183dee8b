package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.time.LocalDateTime;

/**
 * Serializes {@link LocalDateTime} as its date ({@link LocalDateSerializer}'s 6 bytes) followed by its
 * time ({@link LocalTimeSerializer}'s 7 bytes).
 *
 * <p>Immutable values: {@link #copy(LocalDateTime)} returns its argument. Invalid dates or times fail
 * as corrupt, naming the position. Thread-safe singleton. Rejects null with a
 * {@link NullPointerException}.
 */
public final class LocalDateTimeSerializer extends TypeSerializerSingleton<LocalDateTime> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final LocalDateTimeSerializer INSTANCE = new LocalDateTimeSerializer();

    private static final LocalDateTime EPOCH = LocalDateTime.of(1970, 1, 1, 0, 0);

    private LocalDateTimeSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public LocalDateTime createInstance() {
        return EPOCH;
    }

    @Override
    public LocalDateTime copy(LocalDateTime from) {
        return from;
    }

    @Override
    public int getLength() {
        return 13;
    }

    @Override
    public void serialize(LocalDateTime record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        LocalDateSerializer.writeDate(record.toLocalDate(), target);
        LocalTimeSerializer.writeTime(record.toLocalTime(), target);
    }

    @Override
    public LocalDateTime deserialize(DataInputView source) throws IOException {
        return LocalDateTime.of(LocalDateSerializer.readDate(source, "LocalDateTime"),
                LocalTimeSerializer.readTime(source, "LocalDateTime"));
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
