package dev.runnel.api.common.typeinfo;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.BigDecSerializer;
import dev.runnel.api.common.typeutils.base.BigIntSerializer;
import dev.runnel.api.common.typeutils.base.BooleanSerializer;
import dev.runnel.api.common.typeutils.base.ByteSerializer;
import dev.runnel.api.common.typeutils.base.CharSerializer;
import dev.runnel.api.common.typeutils.base.DateSerializer;
import dev.runnel.api.common.typeutils.base.DoubleSerializer;
import dev.runnel.api.common.typeutils.base.FloatSerializer;
import dev.runnel.api.common.typeutils.base.InstantSerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.ShortSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.api.common.typeutils.base.UUIDSerializer;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.util.Date;
import java.util.Map;
import java.util.UUID;

/**
 * Type information of {@code String}, the boxed primitives and Flink's other basic types
 * ({@code java.util.Date}, {@code BigInteger}, {@code BigDecimal}, {@code Instant}), each with its
 * dedicated serializer; Runnel adds {@code UUID}, which Flink leaves to Kryo. Primitive classes
 * ({@code int.class}) map to their boxed type's information. All of them are key types: their
 * {@code hashCode} is value-based. Immutable singletons, one per class ({@link #getInfoFor(Class)}).
 *
 * @param <T> the described type
 */
public final class BasicTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    public static final BasicTypeInfo<String> STRING_TYPE_INFO = new BasicTypeInfo<>(String.class, StringSerializer.INSTANCE);
    public static final BasicTypeInfo<Boolean> BOOLEAN_TYPE_INFO = new BasicTypeInfo<>(Boolean.class, BooleanSerializer.INSTANCE);
    public static final BasicTypeInfo<Byte> BYTE_TYPE_INFO = new BasicTypeInfo<>(Byte.class, ByteSerializer.INSTANCE);
    public static final BasicTypeInfo<Short> SHORT_TYPE_INFO = new BasicTypeInfo<>(Short.class, ShortSerializer.INSTANCE);
    public static final BasicTypeInfo<Integer> INT_TYPE_INFO = new BasicTypeInfo<>(Integer.class, IntSerializer.INSTANCE);
    public static final BasicTypeInfo<Long> LONG_TYPE_INFO = new BasicTypeInfo<>(Long.class, LongSerializer.INSTANCE);
    public static final BasicTypeInfo<Float> FLOAT_TYPE_INFO = new BasicTypeInfo<>(Float.class, FloatSerializer.INSTANCE);
    public static final BasicTypeInfo<Double> DOUBLE_TYPE_INFO = new BasicTypeInfo<>(Double.class, DoubleSerializer.INSTANCE);
    public static final BasicTypeInfo<Character> CHAR_TYPE_INFO = new BasicTypeInfo<>(Character.class, CharSerializer.INSTANCE);
    public static final BasicTypeInfo<Date> DATE_TYPE_INFO = new BasicTypeInfo<>(Date.class, DateSerializer.INSTANCE);
    public static final BasicTypeInfo<BigInteger> BIG_INT_TYPE_INFO = new BasicTypeInfo<>(BigInteger.class, BigIntSerializer.INSTANCE);
    public static final BasicTypeInfo<BigDecimal> BIG_DEC_TYPE_INFO = new BasicTypeInfo<>(BigDecimal.class, BigDecSerializer.INSTANCE);
    public static final BasicTypeInfo<Instant> INSTANT_TYPE_INFO = new BasicTypeInfo<>(Instant.class, InstantSerializer.INSTANCE);
    /** Runnel's addition: Flink has no basic type for {@code UUID}. */
    public static final BasicTypeInfo<UUID> UUID_TYPE_INFO = new BasicTypeInfo<>(UUID.class, UUIDSerializer.INSTANCE);

    private static final Map<Class<?>, BasicTypeInfo<?>> BY_CLASS = Map.ofEntries(
            Map.entry(String.class, STRING_TYPE_INFO),
            Map.entry(Boolean.class, BOOLEAN_TYPE_INFO), Map.entry(boolean.class, BOOLEAN_TYPE_INFO),
            Map.entry(Byte.class, BYTE_TYPE_INFO), Map.entry(byte.class, BYTE_TYPE_INFO),
            Map.entry(Short.class, SHORT_TYPE_INFO), Map.entry(short.class, SHORT_TYPE_INFO),
            Map.entry(Integer.class, INT_TYPE_INFO), Map.entry(int.class, INT_TYPE_INFO),
            Map.entry(Long.class, LONG_TYPE_INFO), Map.entry(long.class, LONG_TYPE_INFO),
            Map.entry(Float.class, FLOAT_TYPE_INFO), Map.entry(float.class, FLOAT_TYPE_INFO),
            Map.entry(Double.class, DOUBLE_TYPE_INFO), Map.entry(double.class, DOUBLE_TYPE_INFO),
            Map.entry(Character.class, CHAR_TYPE_INFO), Map.entry(char.class, CHAR_TYPE_INFO),
            Map.entry(Date.class, DATE_TYPE_INFO), Map.entry(BigInteger.class, BIG_INT_TYPE_INFO),
            Map.entry(BigDecimal.class, BIG_DEC_TYPE_INFO), Map.entry(Instant.class, INSTANT_TYPE_INFO),
            Map.entry(UUID.class, UUID_TYPE_INFO));

    private final Class<T> clazz;
    private final TypeSerializer<T> serializer;

    private BasicTypeInfo(Class<T> clazz, TypeSerializer<T> serializer) {
        this.clazz = clazz;
        this.serializer = serializer;
    }

    /** The information for {@code type} (a primitive, or one of the classes above), or null if it is not basic. */
    @SuppressWarnings("unchecked")
    public static <X> BasicTypeInfo<X> getInfoFor(Class<X> type) {
        return (BasicTypeInfo<X>) BY_CLASS.get(type);
    }

    @Override
    public boolean isBasicType() {
        return true;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return clazz;
    }

    @Override
    public boolean isKeyType() {
        return true;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    private Object readResolve() {
        return getInfoFor(clazz);
    }

    @Override
    public String toString() {
        return clazz.getSimpleName();
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof BasicTypeInfo<?> other && clazz == other.clazz;
    }

    @Override
    public int hashCode() {
        return clazz.getName().hashCode();
    }
}
