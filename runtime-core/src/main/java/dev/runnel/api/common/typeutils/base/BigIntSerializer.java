package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.math.BigInteger;

/**
 * Serializes {@link BigInteger} as a variable-length byte count followed by its two's-complement
 * bytes, big-endian ({@link BigInteger#toByteArray()}, which is never empty).
 *
 * <p>Immutable values: {@link #copy(BigInteger)} returns its argument. A count of zero, or one larger
 * than the bytes left, is reported as corrupt before anything is allocated. Thread-safe singleton.
 * Rejects null with a {@link NullPointerException}.
 */
public final class BigIntSerializer extends TypeSerializerSingleton<BigInteger> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final BigIntSerializer INSTANCE = new BigIntSerializer();

    private BigIntSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public BigInteger createInstance() {
        return BigInteger.ZERO;
    }

    @Override
    public BigInteger copy(BigInteger from) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(BigInteger record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        writeBigInteger(record, target);
    }

    @Override
    public BigInteger deserialize(DataInputView source) throws IOException {
        return readBigInteger(source, "BigInteger");
    }

    /** Writes the count and two's-complement bytes of {@code value}; shared with {@link BigDecSerializer}. */
    static void writeBigInteger(BigInteger value, DataOutputView target) throws IOException {
        byte[] bytes = value.toByteArray();
        target.writeVarInt(bytes.length);
        target.write(bytes, 0, bytes.length);
    }

    /** Reads what {@link #writeBigInteger} wrote; {@code what} names the value in error messages. */
    static BigInteger readBigInteger(DataInputView source, String what) throws IOException {
        int start = source.position();
        int length = source.readLength(what, 1);
        if (length == 0) {
            throw new CorruptDataException(String.format(
                    "%s at position %s has a byte count of 0, but every value has at least one byte: the data is corrupt",
                    what, start));
        }
        byte[] bytes = new byte[length];
        source.readFully(bytes, 0, length);
        return new BigInteger(bytes);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
