package dev.runnel.api.common.typeutils.base;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.RandomAccess;

/**
 * Serializes a {@link List} as a variable-length element count followed by the elements; reads back
 * an {@link ArrayList}. Used for list state and for fields of type {@code List<T>}.
 *
 * <p>Elements may be null only if the element serializer {@linkplain TypeSerializer#acceptsNull()
 * accepts null}; otherwise a null element fails with a message naming its index. The list itself must
 * not be null. Thread-safe if the element serializer is (which the {@link TypeSerializer} contract
 * requires).
 *
 * @param <T> the element type
 */
public final class ListSerializer<T> extends TypeSerializer<List<T>> {

    private static final long serialVersionUID = 1L;

    private final TypeSerializer<T> elementSerializer;

    /** Each element takes at least this many bytes; bounds the count read back before allocating. */
    private final int minElementBytes;

    public ListSerializer(TypeSerializer<T> elementSerializer) {
        this.elementSerializer = Preconditions.checkNotNull(elementSerializer, "the element serializer must not be null");
        this.minElementBytes = Math.max(1, elementSerializer.getLength());
    }

    /** The serializer of the elements. */
    public TypeSerializer<T> getElementSerializer() {
        return elementSerializer;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public List<T> createInstance() {
        return new ArrayList<>(0);
    }

    @Override
    public List<T> copy(List<T> from) {
        ArrayList<T> copy = new ArrayList<>(from.size());
        if (elementSerializer.isImmutableType()) {
            copy.addAll(from);
        } else {
            for (T element : from) {
                copy.add(element == null ? null : elementSerializer.copy(element));
            }
        }
        return copy;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(List<T> record, DataOutputView target) throws IOException {
        if (record == null) {
            throw new NullPointerException("ListSerializer cannot serialize a null list; use an empty list instead");
        }
        int size = record.size();
        target.writeVarInt(size);
        if (record instanceof RandomAccess) {
            for (int i = 0; i < size; i++) {
                serializeElement(record.get(i), i, target);
            }
        } else {
            Iterator<T> it = record.iterator();
            for (int i = 0; i < size; i++) {
                serializeElement(it.next(), i, target);
            }
        }
    }

    private void serializeElement(T element, int index, DataOutputView target) throws IOException {
        if (element == null && !elementSerializer.acceptsNull()) {
            throw new NullPointerException(String.format(
                    "list element %s is null, but its serializer %s cannot serialize null: remove null elements"
                            + " before storing the list",
                    index, elementSerializer));
        }
        elementSerializer.serialize(element, target);
    }

    @Override
    public List<T> deserialize(DataInputView source) throws IOException {
        int size = source.readLength("List", minElementBytes);
        ArrayList<T> list = new ArrayList<>(size);
        for (int i = 0; i < size; i++) {
            list.add(elementSerializer.deserialize(source));
        }
        return list;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof ListSerializer<?> other && elementSerializer.equals(other.elementSerializer);
    }

    @Override
    public int hashCode() {
        return 31 * ListSerializer.class.getName().hashCode() + elementSerializer.hashCode();
    }

    @Override
    public String toString() {
        return "ListSerializer<" + elementSerializer + ">";
    }
}
