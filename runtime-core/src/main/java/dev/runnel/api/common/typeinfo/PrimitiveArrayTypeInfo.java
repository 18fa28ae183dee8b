package dev.runnel.api.common.typeinfo;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.array.BooleanPrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.array.CharPrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.array.DoublePrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.array.FloatPrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.array.IntPrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.array.LongPrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.array.ShortPrimitiveArraySerializer;
import java.util.Map;

/**
 * Type information of the arrays of the eight primitive types ({@code int[]}, {@code byte[]}, ...),
 * each with a dedicated serializer that writes the elements without boxing. Arrays hash and compare
 * by identity, so they are not key types. Immutable singletons, one per array class
 * ({@link #getInfoFor(Class)}).
 *
 * @param <T> the array type
 */
public final class PrimitiveArrayTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    public static final PrimitiveArrayTypeInfo<boolean[]> BOOLEAN_PRIMITIVE_ARRAY_TYPE_INFO =
            new PrimitiveArrayTypeInfo<>(boolean[].class, BooleanPrimitiveArraySerializer.INSTANCE);
    public static final PrimitiveArrayTypeInfo<byte[]> BYTE_PRIMITIVE_ARRAY_TYPE_INFO =
            new PrimitiveArrayTypeInfo<>(byte[].class, BytePrimitiveArraySerializer.INSTANCE);
    public static final PrimitiveArrayTypeInfo<short[]> SHORT_PRIMITIVE_ARRAY_TYPE_INFO =
            new PrimitiveArrayTypeInfo<>(short[].class, ShortPrimitiveArraySerializer.INSTANCE);
    public static final PrimitiveArrayTypeInfo<int[]> INT_PRIMITIVE_ARRAY_TYPE_INFO =
            new PrimitiveArrayTypeInfo<>(int[].class, IntPrimitiveArraySerializer.INSTANCE);
    public static final PrimitiveArrayTypeInfo<long[]> LONG_PRIMITIVE_ARRAY_TYPE_INFO =
            new PrimitiveArrayTypeInfo<>(long[].class, LongPrimitiveArraySerializer.INSTANCE);
    public static final PrimitiveArrayTypeInfo<float[]> FLOAT_PRIMITIVE_ARRAY_TYPE_INFO =
            new PrimitiveArrayTypeInfo<>(float[].class, FloatPrimitiveArraySerializer.INSTANCE);
    public static final PrimitiveArrayTypeInfo<double[]> DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO =
            new PrimitiveArrayTypeInfo<>(double[].class, DoublePrimitiveArraySerializer.INSTANCE);
    public static final PrimitiveArrayTypeInfo<char[]> CHAR_PRIMITIVE_ARRAY_TYPE_INFO =
            new PrimitiveArrayTypeInfo<>(char[].class, CharPrimitiveArraySerializer.INSTANCE);

    private static final Map<Class<?>, PrimitiveArrayTypeInfo<?>> BY_CLASS = Map.of(
            boolean[].class, BOOLEAN_PRIMITIVE_ARRAY_TYPE_INFO, byte[].class, BYTE_PRIMITIVE_ARRAY_TYPE_INFO,
            short[].class, SHORT_PRIMITIVE_ARRAY_TYPE_INFO, int[].class, INT_PRIMITIVE_ARRAY_TYPE_INFO,
            long[].class, LONG_PRIMITIVE_ARRAY_TYPE_INFO, float[].class, FLOAT_PRIMITIVE_ARRAY_TYPE_INFO,
            double[].class, DOUBLE_PRIMITIVE_ARRAY_TYPE_INFO, char[].class, CHAR_PRIMITIVE_ARRAY_TYPE_INFO);

    private final Class<T> arrayClass;
    private final TypeSerializer<T> serializer;

    private PrimitiveArrayTypeInfo(Class<T> arrayClass, TypeSerializer<T> serializer) {
        this.arrayClass = arrayClass;
        this.serializer = serializer;
    }

    /** The information for {@code type}, or null if it is not an array of a primitive type. */
    @SuppressWarnings("unchecked")
    public static <X> PrimitiveArrayTypeInfo<X> getInfoFor(Class<X> type) {
        return (PrimitiveArrayTypeInfo<X>) BY_CLASS.get(type);
    }

    /** The element class, e.g. {@code byte.class}. */
    public Class<?> getComponentClass() {
        return arrayClass.getComponentType();
    }

    /** The type information of the (boxed) elements, e.g. {@code Types.BYTE} for {@code byte[]}. */
    public TypeInformation<?> getComponentType() {
        return BasicTypeInfo.getInfoFor(arrayClass.getComponentType());
    }

    @Override
    public boolean isBasicType() {
        return false;
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
        return arrayClass;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    private Object readResolve() {
        return getInfoFor(arrayClass);
    }

    @Override
    public String toString() {
        return arrayClass.getSimpleName();
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof PrimitiveArrayTypeInfo<?> other && arrayClass == other.arrayClass;
    }

    @Override
    public int hashCode() {
        return arrayClass.getName().hashCode();
    }
}
