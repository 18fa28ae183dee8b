package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.ListSerializer;
import dev.runnel.util.Preconditions;
import java.util.List;

/**
 * Type information of {@code java.util.List} with its element type, serialized by
 * {@link ListSerializer} (read back as {@code ArrayList}). Not a key type, as in Flink. Immutable.
 *
 * @param <T> the element type
 */
public final class ListTypeInfo<T> extends TypeInformation<List<T>> {

    private static final long serialVersionUID = 1L;

    private final TypeInformation<T> elementTypeInfo;

    public ListTypeInfo(TypeInformation<T> elementTypeInfo) {
        this.elementTypeInfo = Preconditions.checkNotNull(elementTypeInfo, "the element type must not be null");
    }

    /** Lists of a non-generic element class, e.g. {@code new ListTypeInfo<>(String.class)}. */
    public ListTypeInfo(Class<T> elementClass) {
        this(TypeInformation.of(elementClass));
    }

    /** The type of the elements. */
    public TypeInformation<T> getElementTypeInfo() {
        return elementTypeInfo;
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
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Class<List<T>> getTypeClass() {
        return (Class) List.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<List<T>> createSerializer(SerializerConfig config) {
        return new ListSerializer<>(elementTypeInfo.createSerializer(config));
    }

    @Override
    public String toString() {
        return "List<" + elementTypeInfo + ">";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ListTypeInfo<?> other && elementTypeInfo.equals(other.elementTypeInfo);
    }

    @Override
    public int hashCode() {
        return 31 * ListTypeInfo.class.getName().hashCode() + elementTypeInfo.hashCode();
    }
}
