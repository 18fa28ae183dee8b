package dev.runnel.api.common.typeutils.base;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.assertCorrupt;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.deserialize;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.hugeLengthPrefix;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BaseSerializersTest {

    @Test
    void longs() throws Exception {
        SerializerTestHarness.of(LongSerializer.INSTANCE)
                .verify(0L, 1L, -1L, 42L, Long.MIN_VALUE, Long.MAX_VALUE, 0x0102030405060708L);
        // Big-endian, so that the byte order of non-negative values is numeric order.
        assertThat(serialize(LongSerializer.INSTANCE, 0x0102030405060708L))
                .containsExactly(1, 2, 3, 4, 5, 6, 7, 8);
    }

    @Test
    void ints() throws Exception {
        SerializerTestHarness.of(IntSerializer.INSTANCE).verify(0, 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE);
        assertThat(serialize(IntSerializer.INSTANCE, 0x01020304)).containsExactly(1, 2, 3, 4);
    }

    @Test
    void shortsBytesChars() throws Exception {
        SerializerTestHarness.of(ShortSerializer.INSTANCE).verify((short) 0, Short.MIN_VALUE, Short.MAX_VALUE, (short) -1);
        SerializerTestHarness.of(ByteSerializer.INSTANCE).verify((byte) 0, Byte.MIN_VALUE, Byte.MAX_VALUE, (byte) -1);
        SerializerTestHarness.of(CharSerializer.INSTANCE)
                .verify('a', '\0', '\u00FF', '\u20AC', Character.MAX_VALUE, '\uD800', '\uDFFF');
    }

    @Test
    void doublesRoundTripBitForBit() throws Exception {
        SerializerTestHarness.of(DoubleSerializer.INSTANCE).verify(0.0, -0.0, 1.5, Double.NaN, Double.MIN_VALUE,
                Double.MAX_VALUE, Double.NEGATIVE_INFINITY, Double.POSITIVE_INFINITY);
        double negativeZero = deserialize(DoubleSerializer.INSTANCE, serialize(DoubleSerializer.INSTANCE, -0.0));
        assertThat(Double.doubleToRawLongBits(negativeZero)).isEqualTo(Double.doubleToRawLongBits(-0.0));
        double oddNaN = Double.longBitsToDouble(0x7FF0_0000_0000_0ABCL);
        double back = deserialize(DoubleSerializer.INSTANCE, serialize(DoubleSerializer.INSTANCE, oddNaN));
        assertThat(Double.doubleToRawLongBits(back)).isEqualTo(0x7FF0_0000_0000_0ABCL);
    }

    @Test
    void floatsRoundTripBitForBit() throws Exception {
        SerializerTestHarness.of(FloatSerializer.INSTANCE)
                .verify(0.0f, -0.0f, Float.NaN, Float.MIN_VALUE, Float.MAX_VALUE, Float.NEGATIVE_INFINITY);
        float oddNaN = Float.intBitsToFloat(0x7FC0_0123);
        float back = deserialize(FloatSerializer.INSTANCE, serialize(FloatSerializer.INSTANCE, oddNaN));
        assertThat(Float.floatToRawIntBits(back)).isEqualTo(0x7FC0_0123);
    }

    @Test
    void booleansRejectBytesOtherThanZeroAndOne() throws Exception {
        SerializerTestHarness.of(BooleanSerializer.INSTANCE).verify(true, false);
        assertThat(serialize(BooleanSerializer.INSTANCE, true)).containsExactly(1);
        assertThatThrownBy(() -> deserialize(BooleanSerializer.INSTANCE, new byte[] {2}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("position 0")
                .hasMessageContaining("expected 0 or 1");
    }

    @Test
    void byteArrays() throws Exception {
        byte[] large = new byte[10 * 1024 * 1024];
        new java.util.Random(7).nextBytes(large);
        SerializerTestHarness.of(BytePrimitiveArraySerializer.INSTANCE)
                .verify(new byte[0], new byte[] {1, 2, 3}, new byte[] {-128, 0, 127}, large);
        assertCorrupt(BytePrimitiveArraySerializer.INSTANCE, hugeLengthPrefix());
    }

    @Test
    void byteArrayCopiesAreDistinct() throws Exception {
        byte[] original = {1, 2, 3};
        byte[] copy = BytePrimitiveArraySerializer.INSTANCE.copy(original);
        assertThat(copy).isEqualTo(original).isNotSameAs(original);
        byte[] reuse = new byte[3];
        assertThat(BytePrimitiveArraySerializer.INSTANCE.copy(original, reuse)).isSameAs(reuse).isEqualTo(original);
        // Deserializing into an array of the right length fills it instead of allocating.
        byte[] target = new byte[3];
        byte[] read = BytePrimitiveArraySerializer.INSTANCE.deserialize(target,
                new DataInputDeserializer(serialize(BytePrimitiveArraySerializer.INSTANCE, original)));
        assertThat(read).isSameAs(target).containsExactly(1, 2, 3);
    }

    @Test
    void strings() throws Exception {
        String latin1Large = "abcdefghij".repeat(1024 * 1024);
        String wideLarge = "ab\u20AC\uD83D\uDE00".repeat(2 * 1024 * 1024);
        SerializerTestHarness.of(StringSerializer.INSTANCE).verify(
                "", "a", "hello world", "caf\u00E9 \u00FF", "\u20AC", "\u65E5\u672C\u8A9E",
                "emoji \uD83D\uDE00 outside the BMP", // a surrogate pair
                "\uD800", "x\uDC00y", "\uDBFF\uD800", // unpaired and reversed surrogates
                "\0nul\0", latin1Large, wideLarge);
        assertThat(latin1Large.length()).isEqualTo(10 * 1024 * 1024);
    }

    @Test
    void stringEncodingIsNarrowForLatin1AndWideOtherwise() throws Exception {
        // Header (length << 1 | wide), then one byte per char.
        assertThat(serialize(StringSerializer.INSTANCE, "hi")).containsExactly(4, 'h', 'i');
        assertThat(serialize(StringSerializer.INSTANCE, "\u00E9")).containsExactly(2, 0xE9);
        // One char beyond Latin-1 at the end switches the whole string to two bytes per char.
        assertThat(serialize(StringSerializer.INSTANCE, "a\u20AC")).containsExactly(5, 0, 'a', 0x20, 0xAC);
        assertThat(serialize(StringSerializer.INSTANCE, "")).containsExactly(0);
    }

    @Test
    void stringNarrowToWideFallbackKeepsEarlierRecords() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(16);
        StringSerializer.INSTANCE.serialize("first", out);
        StringSerializer.INSTANCE.serialize("x".repeat(100) + "\u0100", out);
        StringSerializer.INSTANCE.serialize("last", out);
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        assertThat(StringSerializer.INSTANCE.deserialize(in)).isEqualTo("first");
        assertThat(StringSerializer.INSTANCE.deserialize(in)).isEqualTo("x".repeat(100) + "\u0100");
        assertThat(StringSerializer.INSTANCE.deserialize(in)).isEqualTo("last");
        assertThat(in.available()).isZero();
    }

    @Test
    void hugeStringLengthFailsFast() {
        assertCorrupt(StringSerializer.INSTANCE, hugeLengthPrefix());
        // A narrow header claiming 2^30 - 1 chars.
        assertCorrupt(StringSerializer.INSTANCE, new byte[] {(byte) 0xFE, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 'a'});
    }

    @Test
    void nullIsRejectedWithTheSerializerName() {
        List<TypeSerializer<?>> all = List.of(StringSerializer.INSTANCE, LongSerializer.INSTANCE, IntSerializer.INSTANCE,
                DoubleSerializer.INSTANCE, FloatSerializer.INSTANCE, ShortSerializer.INSTANCE, ByteSerializer.INSTANCE,
                CharSerializer.INSTANCE, BooleanSerializer.INSTANCE, BytePrimitiveArraySerializer.INSTANCE);
        for (TypeSerializer<?> serializer : all) {
            assertThat(serializer.acceptsNull()).isFalse();
            assertThatThrownBy(() -> serialize(serializer, null))
                    .as(serializer.toString())
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining(serializer.getClass().getSimpleName() + " cannot serialize null");
        }
    }

    @Test
    void singletonsAreEqualOnlyToThemselves() {
        assertThat(LongSerializer.INSTANCE).isEqualTo(LongSerializer.INSTANCE).isNotEqualTo(IntSerializer.INSTANCE);
        assertThat(StringSerializer.INSTANCE.hashCode()).isNotEqualTo(LongSerializer.INSTANCE.hashCode());
    }
}
