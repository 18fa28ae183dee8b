package dev.runnel.api.common.typeutils.base;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.lang.reflect.Array;
import java.util.Arrays;

/**
 * Serializes an array of objects ({@code String[]}, {@code Integer[]}, {@code Order[]}, {@code int[][]})
 * with the serializer of its component type. Used by {@code BasicArrayTypeInfo} and
 * {@code ObjectArrayTypeInfo}.
 *
 * <h2>Format</h2>
 * A variable-length element count, then for each element a presence byte (1, or 0 for a null element
 * with nothing after it) and the element. Elements may therefore be null, as in Flink. The count is
 * checked against the bytes left (each element takes at least its presence byte) before the array is
 * allocated. The array read back has exactly the component class given here.
 *
 * <p>{@link #copy(Object[])} is deep: a new array, each element copied by the component serializer.
 * Thread-safe if the component serializer is (which the {@link TypeSerializer} contract requires).
 * Rejects a null array with a {@link NullPointerException}.
 *
 * @param <C> the component type
 */
public final class GenericArraySerializer<C> extends TypeSerializer<C[]> {

    private static final long serialVersionUID = 1L;

    private final Class<C> componentClass;
    private final TypeSerializer<C> componentSerializer;
    private final transient C[] empty;

    public GenericArraySerializer(Class<C> componentClass, TypeSerializer<C> componentSerializer) {
        this.componentClass = Preconditions.checkNotNull(componentClass, "the component class must not be null");
        this.componentSerializer = Preconditions.checkNotNull(componentSerializer, "the component serializer must not be null");
        Preconditions.checkArgument(!componentClass.isPrimitive(),
                "%s is primitive; use its PrimitiveArrayTypeInfo serializer instead", componentClass.getName());
        this.empty = newArray(0);
    }

    /** The class of the elements. */
    public Class<C> getComponentClass() {
        return componentClass;
    }

    /** The serializer of the elements. */
    public TypeSerializer<C> getComponentSerializer() {
        return componentSerializer;
    }

    @SuppressWarnings("unchecked")
    private C[] newArray(int length) {
        return (C[]) Array.newInstance(componentClass, length);
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public C[] createInstance() {
        // Zero-length arrays cannot be mutated, so sharing one is safe.
        return empty;
    }

    @Override
    public C[] copy(C[] from) {
        C[] copy = Arrays.copyOf(from, from.length);
        if (!componentSerializer.isImmutableType()) {
            for (int i = 0; i < copy.length; i++) {
                if (copy[i] != null) {
                    copy[i] = componentSerializer.copy(copy[i]);
                }
            }
        }
        return copy;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(C[] record, DataOutputView target) throws IOException {
        if (record == null) {
            throw new NullPointerException(String.format(
                    "GenericArraySerializer cannot serialize a null %s[]; use an empty array instead", componentClass.getSimpleName()));
        }
        target.writeVarInt(record.length);
        for (C element : record) {
            if (element == null) {
                target.writeByte(0);
            } else {
                target.writeByte(1);
                componentSerializer.serialize(element, target);
            }
        }
    }

    @Override
    public C[] deserialize(DataInputView source) throws IOException {
        int length = source.readLength(componentClass.getSimpleName() + "[]", 1);
        C[] array = length == 0 ? empty : newArray(length);
        for (int i = 0; i < length; i++) {
            int present = source.readByte();
            if (present == 1) {
                array[i] = componentSerializer.deserialize(source);
            } else if (present != 0) {
                throw new CorruptDataException(String.format(
                        "element %s of a %s[] at position %s has presence byte %s, expected 0 or 1: the data is corrupt",
                        i, componentClass.getSimpleName(), source.position() - 1, present));
            }
        }
        return array;
    }

    /** Rebuilds the shared empty array after Java deserialization. */
    private Object readResolve() {
        return new GenericArraySerializer<>(componentClass, componentSerializer);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof GenericArraySerializer<?> other && componentClass == other.componentClass
                && componentSerializer.equals(other.componentSerializer);
    }

    @Override
    public int hashCode() {
        return 31 * componentClass.getName().hashCode() + componentSerializer.hashCode();
    }

    @Override
    public String toString() {
        return "GenericArraySerializer<" + componentSerializer + ">";
    }
}
