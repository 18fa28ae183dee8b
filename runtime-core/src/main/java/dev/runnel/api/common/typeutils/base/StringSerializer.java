package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Serializes {@link String} exactly: every {@code char} sequence round-trips, including unpaired
 * surrogates (which UTF-8 cannot represent) and characters outside the BMP.
 *
 * <h2>Format</h2>
 * A variable-length header {@code (length << 1) | wide}, where {@code length} is the number of chars:
 * <ul>
 *   <li>{@code wide = 0}: every char is at most {@code U+00FF}; one byte per char (Latin-1). This is
 *       the common case (ASCII keys, words, ids) and decodes straight into a compact String.</li>
 *   <li>{@code wide = 1}: two bytes per char, the UTF-16 code units big-endian. Chosen over UTF-8
 *       because every byte pair is a valid char, so decoding has no malformed states to validate, and
 *       lone surrogates survive.</li>
 * </ul>
 * The header bounds the payload, so a corrupt length fails before anything is allocated.
 *
 * <p>Thread-safe singleton. Rejects null with a {@link NullPointerException}. Writing to a
 * {@link DataOutputSerializer} or reading from a {@link DataInputDeserializer} encodes and decodes in
 * place in their arrays, with no intermediate buffer.
 */
public final class StringSerializer extends TypeSerializerSingleton<String> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final StringSerializer INSTANCE = new StringSerializer();

    /** The longest string the header can describe: the length is shifted left by one bit. */
    public static final int MAX_LENGTH = Integer.MAX_VALUE >> 1;

    private StringSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public String createInstance() {
        return "";
    }

    @Override
    public String copy(String from) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(String record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        int length = record.length();
        if (length > MAX_LENGTH) {
            throw new IllegalArgumentException(String.format(
                    "a String of %s chars is longer than the %s chars StringSerializer can write; split it",
                    length, MAX_LENGTH));
        }
        if (target instanceof DataOutputSerializer out) {
            serializeInPlace(record, length, out);
        } else {
            serializeToView(record, length, target);
        }
    }

    private static void serializeInPlace(String s, int length, DataOutputSerializer out) {
        int headerStart = out.length();
        // Room for the longest header and the narrow payload; the wide path asks for more itself.
        out.ensure(5 + length);
        out.writeVarInt(length << 1);
        byte[] buffer = out.getSharedBuffer();
        int base = out.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (c > 0xFF) {
                // Not Latin-1 after all: drop what was written and start over wide. Scanning first
                // would read every narrow string twice, and narrow strings are the common case.
                out.setPosition(headerStart);
                serializeWideInPlace(s, length, out);
                return;
            }
            buffer[base + i] = (byte) c;
        }
        out.advance(length);
    }

    private static void serializeWideInPlace(String s, int length, DataOutputSerializer out) {
        if (2L * length + 5 > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(String.format(
                    "a String of %s chars outside Latin-1 needs %s bytes, more than one record can hold; split it",
                    length, 2L * length));
        }
        out.ensure(5 + 2 * length);
        out.writeVarInt((length << 1) | 1);
        byte[] buffer = out.getSharedBuffer();
        int p = out.length();
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            buffer[p++] = (byte) (c >>> 8);
            buffer[p++] = (byte) c;
        }
        out.advance(2 * length);
    }

    private static void serializeToView(String s, int length, DataOutputView target) throws IOException {
        boolean wide = false;
        for (int i = 0; i < length && !wide; i++) {
            wide = s.charAt(i) > 0xFF;
        }
        target.writeVarInt((length << 1) | (wide ? 1 : 0));
        for (int i = 0; i < length; i++) {
            char c = s.charAt(i);
            if (wide) {
                target.writeChar(c);
            } else {
                target.writeByte(c);
            }
        }
    }

    @Override
    public String deserialize(DataInputView source) throws IOException {
        int start = source.position();
        int header = source.readVarInt();
        int length = header >>> 1;
        boolean wide = (header & 1) != 0;
        long byteCount = wide ? 2L * length : length;
        if (byteCount > source.available()) {
            throw new CorruptDataException(String.format(
                    "String at position %s claims %s chars (%s bytes) but only %s bytes remain: the data is"
                            + " truncated or corrupt",
                    start, length, byteCount, source.available()));
        }
        int bytes = (int) byteCount;
        if (source instanceof DataInputDeserializer in) {
            byte[] array = in.array();
            int offset = in.arrayPosition();
            String s = wide ? decodeWide(array, offset, length) : new String(array, offset, bytes, StandardCharsets.ISO_8859_1);
            in.advance(bytes);
            return s;
        }
        byte[] scratch = new byte[bytes];
        source.readFully(scratch, 0, bytes);
        return wide ? decodeWide(scratch, 0, length) : new String(scratch, StandardCharsets.ISO_8859_1);
    }

    private static String decodeWide(byte[] bytes, int offset, int length) {
        // Decoded by hand: the JDK's UTF-16 decoder would replace lone surrogates with U+FFFD.
        char[] chars = new char[length];
        for (int i = 0, p = offset; i < length; i++, p += 2) {
            chars[i] = (char) (((bytes[p] & 0xFF) << 8) | (bytes[p + 1] & 0xFF));
        }
        return new String(chars);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
