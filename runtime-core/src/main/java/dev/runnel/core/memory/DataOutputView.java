package dev.runnel.core.memory;

import java.io.IOException;

/**
 * A sink of bytes that serializers write records into. Multi-byte values are big-endian, so that the
 * byte order of non-negative numbers equals their numeric order (state keys rely on this).
 *
 * <p>Implementations are not thread-safe; one writer owns a view at a time.
 */
public interface DataOutputView {

    void writeBoolean(boolean v) throws IOException;

    void writeByte(int v) throws IOException;

    void writeShort(int v) throws IOException;

    void writeChar(int v) throws IOException;

    void writeInt(int v) throws IOException;

    void writeLong(long v) throws IOException;

    void writeFloat(float v) throws IOException;

    void writeDouble(double v) throws IOException;

    void write(byte[] bytes, int offset, int length) throws IOException;

    default void write(byte[] bytes) throws IOException {
        write(bytes, 0, bytes.length);
    }

    /** Writes {@code v >= 0} in 1 to 5 bytes, 7 bits a byte, low bits first (for lengths). */
    default void writeVarInt(int v) throws IOException {
        if (v < 0) {
            throw new IllegalArgumentException("writeVarInt takes non-negative values, got " + v);
        }
        while ((v & ~0x7F) != 0) {
            writeByte((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        writeByte(v);
    }
}
