package dev.runnel.api.common.typeutils.base;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.assertCorrupt;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.deserialize;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.hugeLengthPrefix;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeinfo.BasicTypeInfo;
import dev.runnel.api.common.typeinfo.LocalTimeTypeInfo;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.Date;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The dedicated serializers of Flink's other basic types and of the java.time local types. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TimeAndNumberSerializersTest {

    @Test
    void bigIntegersKeepEverySign() throws Exception {
        BigInteger huge = BigInteger.TWO.pow(1000).subtract(BigInteger.ONE);
        SerializerTestHarness.of(BigIntSerializer.INSTANCE)
                .verify(BigInteger.ZERO, BigInteger.ONE, BigInteger.valueOf(-1), BigInteger.valueOf(Long.MIN_VALUE), huge,
                        huge.negate());
        // A count, then the two's-complement bytes.
        assertThat(serialize(BigIntSerializer.INSTANCE, BigInteger.valueOf(-2))).containsExactly(1, 0xFE);
        assertThat(serialize(BigIntSerializer.INSTANCE, BigInteger.valueOf(256))).containsExactly(2, 1, 0);
        assertCorrupt(BigIntSerializer.INSTANCE, hugeLengthPrefix());
        assertThatThrownBy(() -> deserialize(BigIntSerializer.INSTANCE, new byte[] {0}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("BigInteger at position 0 has a byte count of 0");
    }

    @Test
    void bigDecimalsKeepTheirScale() throws Exception {
        SerializerTestHarness.of(BigDecSerializer.INSTANCE).verify(BigDecimal.ZERO, new BigDecimal("1.0"),
                new BigDecimal("1.00"), new BigDecimal("-123456789012345678901234567890.123456789"),
                new BigDecimal("1E+50"), new BigDecimal("1E-50"));
        BigDecimal back = deserialize(BigDecSerializer.INSTANCE, serialize(BigDecSerializer.INSTANCE, new BigDecimal("1.00")));
        assertThat(back.scale()).isEqualTo(2);
        // Scale (4 bytes), then the unscaled value 100 as a BigInteger.
        assertThat(serialize(BigDecSerializer.INSTANCE, new BigDecimal("1.00"))).containsExactly(0, 0, 0, 2, 1, 100);
    }

    @Test
    void dates() throws Exception {
        SerializerTestHarness.of(DateSerializer.INSTANCE).verify(new Date(0), new Date(-1), new Date(1_700_000_000_123L),
                new Date(Long.MAX_VALUE));
        Date original = new Date(5);
        Date copy = DateSerializer.INSTANCE.copy(original);
        original.setTime(6);
        assertThat(copy.getTime()).as("copies are independent of the mutable original").isEqualTo(5);
        Date reuse = new Date(99);
        assertThat(DateSerializer.INSTANCE.deserialize(reuse, new DataInputDeserializer(serialize(DateSerializer.INSTANCE,
                new Date(7))))).isSameAs(reuse).isEqualTo(new Date(7));
    }

    @Test
    void instants() throws Exception {
        SerializerTestHarness.of(InstantSerializer.INSTANCE)
                .verify(Instant.EPOCH, Instant.MIN, Instant.MAX, Instant.ofEpochSecond(-1, 999_999_999),
                        Instant.parse("2026-12-01T09:26:08.123456789Z"));
        assertThat(serialize(InstantSerializer.INSTANCE, Instant.ofEpochSecond(1, 2)))
                .containsExactly(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2);
        assertThatThrownBy(() -> deserialize(InstantSerializer.INSTANCE, new byte[] {0, 0, 0, 0, 0, 0, 0, 1, 0x7F, 0, 0, 0}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Instant at position 0 has nano-of-second 2130706432");
        assertThatThrownBy(() -> deserialize(InstantSerializer.INSTANCE,
                new byte[] {0x7F, -1, -1, -1, -1, -1, -1, -1, 0, 0, 0, 0}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Instant at position 0");
    }

    @Test
    void localDatesTimesAndDateTimes() throws Exception {
        SerializerTestHarness.of(LocalDateSerializer.INSTANCE)
                .verify(LocalDate.EPOCH, LocalDate.MIN, LocalDate.MAX, LocalDate.of(2024, 2, 29));
        SerializerTestHarness.of(LocalTimeSerializer.INSTANCE)
                .verify(LocalTime.MIDNIGHT, LocalTime.MAX, LocalTime.of(9, 26, 8, 123_456_789));
        SerializerTestHarness.of(LocalDateTimeSerializer.INSTANCE)
                .verify(LocalDateTime.MIN, LocalDateTime.MAX, LocalDateTime.of(2026, 12, 1, 9, 26, 8, 5));
        assertThat(serialize(LocalDateSerializer.INSTANCE, LocalDate.of(2024, 2, 29))).containsExactly(0, 0, 7, 0xE8, 2, 29);
        assertThat(serialize(LocalTimeSerializer.INSTANCE, LocalTime.of(23, 59, 58, 1))).containsExactly(23, 59, 58, 0, 0, 0, 1);
    }

    @Test
    void invalidDatesAndTimesAreCorrupt() {
        assertThatThrownBy(() -> deserialize(LocalDateSerializer.INSTANCE, new byte[] {0, 0, 7, (byte) 0xE9, 2, 29}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("LocalDate at position 0 is not a valid date");
        assertThatThrownBy(() -> deserialize(LocalTimeSerializer.INSTANCE, new byte[] {24, 0, 0, 0, 0, 0, 0}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("LocalTime at position 0 is not a valid time");
        assertThatThrownBy(() -> deserialize(LocalDateTimeSerializer.INSTANCE,
                new byte[] {0, 0, 7, (byte) 0xE8, 2, 29, 0, 60, 0, 0, 0, 0, 0}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("LocalDateTime at position 6 is not a valid time");
    }

    @Test
    void uuids() throws Exception {
        SerializerTestHarness.of(UUIDSerializer.INSTANCE).verify(new UUID(0, 0), new UUID(-1, -1),
                UUID.fromString("123e4567-e89b-12d3-a456-426614174000"));
        assertThat(serialize(UUIDSerializer.INSTANCE, new UUID(1, 2)))
                .containsExactly(0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 2);
    }

    @Test
    void nullIsRejectedWithTheSerializerName() {
        List<TypeSerializer<?>> all = List.of(BigIntSerializer.INSTANCE, BigDecSerializer.INSTANCE, DateSerializer.INSTANCE,
                InstantSerializer.INSTANCE, LocalDateSerializer.INSTANCE, LocalTimeSerializer.INSTANCE,
                LocalDateTimeSerializer.INSTANCE, UUIDSerializer.INSTANCE);
        for (TypeSerializer<?> serializer : all) {
            assertThatThrownBy(() -> serialize(serializer, null))
                    .as(serializer.toString())
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining(serializer.getClass().getSimpleName() + " cannot serialize null");
        }
    }

    @Test
    void typeInformationOfTheClassesPicksTheseSerializers() {
        assertThat(TypeInformation.of(BigDecimal.class)).isSameAs(Types.BIG_DEC).isSameAs(BasicTypeInfo.BIG_DEC_TYPE_INFO);
        assertThat(TypeInformation.of(BigInteger.class)).isSameAs(Types.BIG_INT);
        assertThat(TypeInformation.of(Instant.class)).isSameAs(Types.INSTANT);
        assertThat(TypeInformation.of(Date.class)).isSameAs(BasicTypeInfo.DATE_TYPE_INFO);
        assertThat(TypeInformation.of(UUID.class)).isSameAs(BasicTypeInfo.UUID_TYPE_INFO);
        assertThat(TypeInformation.of(LocalDate.class)).isSameAs(Types.LOCAL_DATE).isSameAs(LocalTimeTypeInfo.LOCAL_DATE);
        assertThat(TypeInformation.of(LocalTime.class)).isSameAs(Types.LOCAL_TIME);
        assertThat(TypeInformation.of(LocalDateTime.class)).isSameAs(Types.LOCAL_DATE_TIME).hasToString("LocalDateTime");
        assertThat(Types.INSTANT.isBasicType()).isTrue();
        assertThat(Types.LOCAL_DATE.isBasicType()).as("as in Flink").isFalse();
        assertThat(Types.LOCAL_DATE.isKeyType()).isTrue();
        assertThat(Types.BIG_DEC).hasToString("BigDecimal");
    }
}
