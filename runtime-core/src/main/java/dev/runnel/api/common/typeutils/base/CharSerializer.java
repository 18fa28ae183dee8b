package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * Serializes {@link Character} as its 2-byte UTF-16 code unit, big-endian; any value, including a lone surrogate, round-trips.
 *
 * <p>Thread-safe singleton. Rejects null with a {@link NullPointerException}.
 */
public final class CharSerializer extends TypeSerializerSingleton<Character> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final CharSerializer INSTANCE = new CharSerializer();

    private static final Character ZERO = (char) 0;

    private CharSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public Character createInstance() {
        return ZERO;
    }

    @Override
    public Character copy(Character from) {
        return from;
    }

    @Override
    public int getLength() {
        return 2;
    }

    @Override
    public void serialize(Character record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeChar(record);
    }

    @Override
    public Character deserialize(DataInputView source) throws IOException {
        return source.readChar();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
