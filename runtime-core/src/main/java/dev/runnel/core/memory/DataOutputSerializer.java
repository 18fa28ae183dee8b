package dev.runnel.core.memory;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * A {@link DataOutputView} over a growable heap byte array. Reuse one instance with {@link #clear()}
 * to serialize many records without allocating.
 *
 * <p>Not thread-safe. {@link #getSharedBuffer()} exposes the internal array, valid until the next write.
 */
public final class DataOutputSerializer implements DataOutputView {

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final int MAX_ARRAY = Integer.MAX_VALUE - 16;

    private byte[] buffer;
    private int position;

    public DataOutputSerializer(int initialCapacity) {
        this.buffer = new byte[Math.max(initialCapacity, 16)];
    }

    /** Forgets the content; keeps the array. */
    public void clear() {
        position = 0;
    }

    /** The number of bytes written since the last {@link #clear()}. */
    public int length() {
        return position;
    }

    /** The internal array; bytes {@code [0, length())} are the content. Invalidated by later writes. */
    public byte[] getSharedBuffer() {
        return buffer;
    }

    /** A copy of the content. */
    public byte[] getCopyOfBuffer() {
        return Arrays.copyOf(buffer, position);
    }

    /** Moves the write position back to {@code newPosition}, e.g. to drop a partial record. */
    public void setPosition(int newPosition) {
        if (newPosition < 0 || newPosition > position) {
            throw new IllegalArgumentException("position " + newPosition + " outside [0, " + position + "]");
        }
        position = newPosition;
    }

    /** Overwrites 4 bytes at {@code at} (already written) with {@code v}, for length back-patching. */
    public void writeIntAt(int at, int v) {
        if (at < 0 || at + 4 > position) {
            throw new IllegalArgumentException("cannot patch 4 bytes at " + at + " of " + position);
        }
        INT.set(buffer, at, v);
    }

    @Override
    public void writeBoolean(boolean v) {
        writeByte(v ? 1 : 0);
    }

    @Override
    public void writeByte(int v) {
        ensure(1);
        buffer[position++] = (byte) v;
    }

    @Override
    public void writeShort(int v) {
        ensure(2);
        SHORT.set(buffer, position, (short) v);
        position += 2;
    }

    @Override
    public void writeChar(int v) {
        writeShort(v);
    }

    @Override
    public void writeInt(int v) {
        ensure(4);
        INT.set(buffer, position, v);
        position += 4;
    }

    @Override
    public void writeLong(long v) {
        ensure(8);
        LONG.set(buffer, position, v);
        position += 8;
    }

    @Override
    public void writeFloat(float v) {
        writeInt(Float.floatToRawIntBits(v));
    }

    @Override
    public void writeDouble(double v) {
        writeLong(Double.doubleToRawLongBits(v));
    }

    @Override
    public void write(byte[] bytes, int offset, int length) {
        ensure(length);
        System.arraycopy(bytes, offset, buffer, position, length);
        position += length;
    }

    @Override
    public void writeVarInt(int v) {
        if (v < 0) {
            throw new IllegalArgumentException("writeVarInt takes non-negative values, got " + v);
        }
        ensure(5);
        while ((v & ~0x7F) != 0) {
            buffer[position++] = (byte) ((v & 0x7F) | 0x80);
            v >>>= 7;
        }
        buffer[position++] = (byte) v;
    }

    /**
     * Commits {@code count} bytes that the caller wrote in place into {@link #getSharedBuffer()}, starting
     * at index {@link #length()}, after making room with {@link #ensure(int)}. Lets serializers encode
     * straight into the array (e.g. strings) instead of through a scratch buffer.
     */
    public void advance(int count) {
        if (count < 0 || count > buffer.length - position) {
            throw new IllegalArgumentException("cannot advance by " + count + " bytes at position " + position
                    + " in a buffer of " + buffer.length + ": call ensure(count) and write the bytes first");
        }
        position += count;
    }

    /** Makes room for {@code extra} more bytes; exposed for serializers that write in bulk. */
    public void ensure(int extra) {
        int needed = position + extra;
        if (needed > buffer.length) {
            grow(needed);
        }
    }

    private void grow(int needed) {
        if (needed < 0 || needed > MAX_ARRAY) {
            throw new IllegalStateException("a serialized record cannot exceed " + MAX_ARRAY + " bytes");
        }
        int newSize = (int) Math.min(MAX_ARRAY, Math.max((long) buffer.length * 2, needed));
        buffer = Arrays.copyOf(buffer, newSize);
    }
}
