package dev.runnel.api.common.typeinfo;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;

/**
 * Type information of primitive arrays with a dedicated serializer; Runnel has one for {@code byte[]}
 * only (other primitive arrays are generic types, serialized by Kryo). Arrays hash and compare by
 * identity, so they are not key types. Immutable singleton.
 *
 * @param <T> the array type
 */
public final class PrimitiveArrayTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    public static final PrimitiveArrayTypeInfo<byte[]> BYTE_PRIMITIVE_ARRAY_TYPE_INFO =
            new PrimitiveArrayTypeInfo<>(byte[].class, BytePrimitiveArraySerializer.INSTANCE);

    private final Class<T> arrayClass;
    private final TypeSerializer<T> serializer;

    private PrimitiveArrayTypeInfo(Class<T> arrayClass, TypeSerializer<T> serializer) {
        this.arrayClass = arrayClass;
        this.serializer = serializer;
    }

    /** The information for {@code type}, or null if Runnel has no dedicated serializer for it. */
    @SuppressWarnings("unchecked")
    public static <X> PrimitiveArrayTypeInfo<X> getInfoFor(Class<X> type) {
        return type == byte[].class ? (PrimitiveArrayTypeInfo<X>) BYTE_PRIMITIVE_ARRAY_TYPE_INFO : null;
    }

    /** The element class, e.g. {@code byte.class}. */
    public Class<?> getComponentClass() {
        return arrayClass.getComponentType();
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
