package dev.runnel.api.common.typeutils.base;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.math.BigDecimal;

/**
 * Serializes {@link BigDecimal} exactly, scale included ({@code 1.0} and {@code 1.00} stay distinct):
 * the scale as a 4-byte int, then the unscaled value as {@link BigIntSerializer} writes it.
 *
 * <p>Immutable values: {@link #copy(BigDecimal)} returns its argument. Thread-safe singleton. Rejects
 * null with a {@link NullPointerException}.
 */
public final class BigDecSerializer extends TypeSerializerSingleton<BigDecimal> {

    private static final long serialVersionUID = 1L;

    /** The only instance. */
    public static final BigDecSerializer INSTANCE = new BigDecSerializer();

    private BigDecSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public BigDecimal createInstance() {
        return BigDecimal.ZERO;
    }

    @Override
    public BigDecimal copy(BigDecimal from) {
        return from;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(BigDecimal record, DataOutputView target) throws IOException {
        if (record == null) {
            throw nullValue();
        }
        target.writeInt(record.scale());
        BigIntSerializer.writeBigInteger(record.unscaledValue(), target);
    }

    @Override
    public BigDecimal deserialize(DataInputView source) throws IOException {
        int scale = source.readInt();
        return new BigDecimal(BigIntSerializer.readBigInteger(source, "BigDecimal"), scale);
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
