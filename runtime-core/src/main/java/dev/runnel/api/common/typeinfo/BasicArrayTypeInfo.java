package dev.runnel.api.common.typeinfo;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.GenericArraySerializer;
import java.util.Map;

/**
 * Type information of arrays of {@code String} and of the boxed primitives ({@code String[]},
 * {@code Integer[]}, ...), as in Flink; serialized element by element with the basic type's
 * serializer ({@link GenericArraySerializer}, so elements may be null). Arrays of the other basic
 * types ({@code BigDecimal[]}, ...) are {@code ObjectArrayTypeInfo}s, as in Flink. Not key types:
 * arrays hash by identity. Immutable singletons ({@link #getInfoFor(Class)}).
 *
 * @param <T> the array type
 * @param <C> the component type
 */
public final class BasicArrayTypeInfo<T, C> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    public static final BasicArrayTypeInfo<String[], String> STRING_ARRAY_TYPE_INFO =
            new BasicArrayTypeInfo<>(String[].class, BasicTypeInfo.STRING_TYPE_INFO);
    public static final BasicArrayTypeInfo<Boolean[], Boolean> BOOLEAN_ARRAY_TYPE_INFO =
            new BasicArrayTypeInfo<>(Boolean[].class, BasicTypeInfo.BOOLEAN_TYPE_INFO);
    public static final BasicArrayTypeInfo<Byte[], Byte> BYTE_ARRAY_TYPE_INFO =
            new BasicArrayTypeInfo<>(Byte[].class, BasicTypeInfo.BYTE_TYPE_INFO);
    public static final BasicArrayTypeInfo<Short[], Short> SHORT_ARRAY_TYPE_INFO =
            new BasicArrayTypeInfo<>(Short[].class, BasicTypeInfo.SHORT_TYPE_INFO);
    public static final BasicArrayTypeInfo<Integer[], Integer> INT_ARRAY_TYPE_INFO =
            new BasicArrayTypeInfo<>(Integer[].class, BasicTypeInfo.INT_TYPE_INFO);
    public static final BasicArrayTypeInfo<Long[], Long> LONG_ARRAY_TYPE_INFO =
            new BasicArrayTypeInfo<>(Long[].class, BasicTypeInfo.LONG_TYPE_INFO);
    public static final BasicArrayTypeInfo<Float[], Float> FLOAT_ARRAY_TYPE_INFO =
            new BasicArrayTypeInfo<>(Float[].class, BasicTypeInfo.FLOAT_TYPE_INFO);
    public static final BasicArrayTypeInfo<Double[], Double> DOUBLE_ARRAY_TYPE_INFO =
            new BasicArrayTypeInfo<>(Double[].class, BasicTypeInfo.DOUBLE_TYPE_INFO);
    public static final BasicArrayTypeInfo<Character[], Character> CHAR_ARRAY_TYPE_INFO =
            new BasicArrayTypeInfo<>(Character[].class, BasicTypeInfo.CHAR_TYPE_INFO);

    private static final Map<Class<?>, BasicArrayTypeInfo<?, ?>> BY_CLASS = Map.of(
            String[].class, STRING_ARRAY_TYPE_INFO, Boolean[].class, BOOLEAN_ARRAY_TYPE_INFO,
            Byte[].class, BYTE_ARRAY_TYPE_INFO, Short[].class, SHORT_ARRAY_TYPE_INFO, Integer[].class, INT_ARRAY_TYPE_INFO,
            Long[].class, LONG_ARRAY_TYPE_INFO, Float[].class, FLOAT_ARRAY_TYPE_INFO, Double[].class, DOUBLE_ARRAY_TYPE_INFO,
            Character[].class, CHAR_ARRAY_TYPE_INFO);

    private final Class<T> arrayClass;
    private final BasicTypeInfo<C> componentInfo;

    private BasicArrayTypeInfo(Class<T> arrayClass, BasicTypeInfo<C> componentInfo) {
        this.arrayClass = arrayClass;
        this.componentInfo = componentInfo;
    }

    /** The information for {@code type}, or null if it is not one of the array classes above. */
    @SuppressWarnings("unchecked")
    public static <X, C> BasicArrayTypeInfo<X, C> getInfoFor(Class<X> type) {
        return (BasicArrayTypeInfo<X, C>) BY_CLASS.get(type);
    }

    /** The type information of the elements. */
    public TypeInformation<C> getComponentInfo() {
        return componentInfo;
    }

    /** The class of the elements. */
    public Class<C> getComponentTypeClass() {
        return componentInfo.getTypeClass();
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
    @SuppressWarnings("unchecked")
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return (TypeSerializer<T>) new GenericArraySerializer<>(componentInfo.getTypeClass(),
                componentInfo.createSerializer(config));
    }

    private Object readResolve() {
        return getInfoFor(arrayClass);
    }

    @Override
    public String toString() {
        return "BasicArrayTypeInfo<" + componentInfo + ">";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof BasicArrayTypeInfo<?, ?> other && arrayClass == other.arrayClass;
    }

    @Override
    public int hashCode() {
        return 31 * BasicArrayTypeInfo.class.getName().hashCode() + arrayClass.getName().hashCode();
    }
}
