package dev.runnel.core.memory;

import java.io.EOFException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A {@link DataInputView} over a slice of a heap byte array. Point it at new bytes with
 * {@link #setBuffer(byte[], int, int)} to read many records without allocating.
 *
 * <p>Not thread-safe. Does not copy the array: the caller must not change it while reading.
 */
public final class DataInputDeserializer implements DataInputView {

    private static final VarHandle SHORT = MethodHandles.byteArrayViewVarHandle(short[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.BIG_ENDIAN);
    private static final VarHandle LONG = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.BIG_ENDIAN);
    private static final byte[] EMPTY = new byte[0];

    private byte[] buffer = EMPTY;
    private int start;
    private int position;
    private int end;

    public DataInputDeserializer() {}

    public DataInputDeserializer(byte[] bytes) {
        setBuffer(bytes, 0, bytes.length);
    }

    /** Reads {@code bytes[offset, offset + length)} from the start. */
    public void setBuffer(byte[] bytes, int offset, int length) {
        if (offset < 0 || length < 0 || offset + length > bytes.length) {
            throw new IllegalArgumentException("slice [" + offset + ", " + offset + "+" + length
                    + ") outside an array of " + bytes.length);
        }
        this.buffer = bytes;
        this.start = offset;
        this.position = offset;
        this.end = offset + length;
    }

    public void setBuffer(byte[] bytes) {
        setBuffer(bytes, 0, bytes.length);
    }

    @Override
    public boolean readBoolean() throws EOFException {
        return readByte() != 0;
    }

    @Override
    public byte readByte() throws EOFException {
        require(1);
        return buffer[position++];
    }

    @Override
    public int readUnsignedByte() throws EOFException {
        return readByte() & 0xFF;
    }

    @Override
    public short readShort() throws EOFException {
        require(2);
        short v = (short) SHORT.get(buffer, position);
        position += 2;
        return v;
    }

    @Override
    public char readChar() throws EOFException {
        return (char) readShort();
    }

    @Override
    public int readInt() throws EOFException {
        require(4);
        int v = (int) INT.get(buffer, position);
        position += 4;
        return v;
    }

    @Override
    public long readLong() throws EOFException {
        require(8);
        long v = (long) LONG.get(buffer, position);
        position += 8;
        return v;
    }

    @Override
    public float readFloat() throws EOFException {
        return Float.intBitsToFloat(readInt());
    }

    @Override
    public double readDouble() throws EOFException {
        return Double.longBitsToDouble(readLong());
    }

    @Override
    public void readFully(byte[] target, int offset, int length) throws EOFException {
        require(length);
        System.arraycopy(buffer, position, target, offset, length);
        position += length;
    }

    @Override
    public void skipBytes(int count) throws EOFException {
        require(count);
        position += count;
    }

    @Override
    public int available() {
        return end - position;
    }

    @Override
    public int position() {
        return position - start;
    }

    /** The backing array, for serializers that decode in place (e.g. strings). */
    public byte[] array() {
        return buffer;
    }

    /** The absolute index in {@link #array()} of the next byte to read. */
    public int arrayPosition() {
        return position;
    }

    /** Advances past {@code count} bytes that a caller decoded in place from {@link #array()}. */
    public void advance(int count) throws EOFException {
        skipBytes(count);
    }

    private void require(int count) throws EOFException {
        if (count < 0 || end - position < count) {
            throw new EOFException("Tried to read " + count + " bytes at position " + (position - start)
                    + " but only " + (end - position) + " remain: the data is truncated");
        }
    }
}
