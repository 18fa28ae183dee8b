package dev.runnel.core.memory;

import java.io.EOFException;
import java.io.IOException;

/**
 * A source of bytes that serializers read records from; the mirror of {@link DataOutputView}.
 *
 * <p>Every read checks the bytes that remain: reading past the end throws {@link EOFException} naming
 * the position, never returns garbage. {@link #available()} is exact, so deserializers can reject a
 * length prefix larger than what remains before they allocate for it. Not thread-safe.
 */
public interface DataInputView {

    boolean readBoolean() throws IOException;

    byte readByte() throws IOException;

    int readUnsignedByte() throws IOException;

    short readShort() throws IOException;

    char readChar() throws IOException;

    int readInt() throws IOException;

    long readLong() throws IOException;

    float readFloat() throws IOException;

    double readDouble() throws IOException;

    /** Reads exactly {@code length} bytes into {@code target} at {@code offset}. */
    void readFully(byte[] target, int offset, int length) throws IOException;

    default void readFully(byte[] target) throws IOException {
        readFully(target, 0, target.length);
    }

    /** Skips exactly {@code count} bytes. */
    void skipBytes(int count) throws IOException;

    /** The number of bytes left to read. */
    int available();

    /** The read position, for error messages. */
    int position();

    /** Reads a value written by {@link DataOutputView#writeVarInt(int)}. */
    default int readVarInt() throws IOException {
        int result = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            int b = readUnsignedByte();
            result |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (result < 0) {
                    throw new CorruptDataException("variable-length int at position " + position() + " is negative");
                }
                return result;
            }
        }
        throw new CorruptDataException("variable-length int at position " + position() + " is longer than 5 bytes");
    }

    /**
     * Reads a length prefix and checks it against the bytes that remain, each element taking at least
     * {@code minBytesPerElement} bytes, so that a corrupt length fails here instead of allocating.
     */
    default int readLength(String what, int minBytesPerElement) throws IOException {
        int start = position();
        int length = readVarInt();
        long needed = (long) length * minBytesPerElement;
        if (needed > available()) {
            throw new CorruptDataException(what + " at position " + start + " claims " + length
                    + " elements but only " + available() + " bytes remain: the data is truncated or corrupt");
        }
        return length;
    }
}
