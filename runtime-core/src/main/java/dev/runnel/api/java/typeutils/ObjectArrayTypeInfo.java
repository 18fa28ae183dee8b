package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.GenericArraySerializer;
import dev.runnel.util.Preconditions;
import java.lang.reflect.Array;

/**
 * Type information of an array of objects whose element type Runnel knows ({@code Order[]},
 * {@code Tuple2<String, Long>[]}, {@code int[][]}, {@code BigDecimal[]}), serialized element by
 * element with the element type's serializer ({@link GenericArraySerializer}; elements may be null).
 * Arrays of {@code String} and of the boxed primitives found by the type extractor are
 * {@code BasicArrayTypeInfo}s instead, as in Flink. Not a key type: arrays hash by identity.
 * Immutable.
 *
 * @param <T> the array type
 * @param <C> the component type
 */
public final class ObjectArrayTypeInfo<T, C> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> arrayType;
    private final TypeInformation<C> componentInfo;

    private ObjectArrayTypeInfo(Class<T> arrayType, TypeInformation<C> componentInfo) {
        this.arrayType = Preconditions.checkNotNull(arrayType, "the array class must not be null");
        this.componentInfo = Preconditions.checkNotNull(componentInfo, "the component type must not be null");
        Preconditions.checkArgument(arrayType.isArray() && !arrayType.getComponentType().isPrimitive(),
                "%s is not an array of objects", arrayType.getName());
    }

    /** Arrays of {@code componentInfo}'s class, e.g. {@code Order[]} for a POJO type {@code Order}. */
    @SuppressWarnings("unchecked")
    public static <T, C> ObjectArrayTypeInfo<T, C> getInfoFor(Class<T> arrayClass, TypeInformation<C> componentInfo) {
        Preconditions.checkNotNull(componentInfo, "the component type must not be null");
        return new ObjectArrayTypeInfo<>(arrayClass, componentInfo);
    }

    /** Arrays whose class follows from the component type's class. */
    @SuppressWarnings("unchecked")
    public static <C> ObjectArrayTypeInfo<C[], C> getInfoFor(TypeInformation<C> componentInfo) {
        Preconditions.checkNotNull(componentInfo, "the component type must not be null");
        return new ObjectArrayTypeInfo<>((Class<C[]>) Array.newInstance(componentInfo.getTypeClass(), 0).getClass(),
                componentInfo);
    }

    /** The type information of the elements. */
    public TypeInformation<C> getComponentInfo() {
        return componentInfo;
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
        return arrayType;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    @SuppressWarnings("unchecked")
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        TypeSerializer<C> elements;
        try {
            elements = componentInfo.createSerializer(config);
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException(String.format("the elements of %s: %s", arrayType.getSimpleName(),
                    e.getMessage()), e);
        }
        return (TypeSerializer<T>) new GenericArraySerializer<>((Class<C>) arrayType.getComponentType(), elements);
    }

    @Override
    public String toString() {
        return "ObjectArrayTypeInfo<" + componentInfo + ">";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ObjectArrayTypeInfo<?, ?> other && arrayType == other.arrayType
                && componentInfo.equals(other.componentInfo);
    }

    @Override
    public int hashCode() {
        return 31 * arrayType.getName().hashCode() + componentInfo.hashCode();
    }
}
