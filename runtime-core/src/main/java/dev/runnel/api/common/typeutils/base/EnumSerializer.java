package dev.runnel.api.common.typeutils.base;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.io.ObjectStreamException;
import java.util.Arrays;

/**
 * Serializes the constants of one enum by position: each value is written as a variable-length
 * index (one byte for enums of up to 128 constants) into the constant names captured when the
 * serializer was created.
 *
 * <p>The names are part of the serializer's identity ({@code equals}, {@code hashCode}, and what
 * travels when the serializer itself is Java-serialized): a serializer restored where the enum has
 * been reordered or extended maps its indexes through the names, so values written under the old
 * order read back as the same constants. A constant added since cannot be written (the message says
 * so), and reading the index of a constant removed since fails as corrupt data.
 *
 * <p>Enum constants are immutable: {@link #copy(Enum)} returns its argument. Thread-safe. Rejects
 * null with a {@link NullPointerException}; a POJO field or a record component of an enum type may
 * still be null, since those carry their own null marker.
 *
 * @param <T> the enum type
 */
public final class EnumSerializer<T extends Enum<T>> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> enumClass;
    /** The constant names, by the index written for them. */
    private final String[] names;

    /** The constant of each written index; null where a name no longer exists. */
    private final transient T[] values;
    /** The written index of each current constant, by ordinal; -1 for constants added since. */
    private final transient int[] indexOfOrdinal;

    /** A serializer of the current constants of {@code enumClass}. */
    public EnumSerializer(Class<T> enumClass) {
        this(enumClass, namesOf(enumClass));
    }

    private EnumSerializer(Class<T> enumClass, String[] names) {
        this.enumClass = enumClass;
        this.names = names;
        T[] current = enumClass.getEnumConstants();
        this.values = Arrays.copyOf(current, names.length);
        Arrays.fill(values, null);
        this.indexOfOrdinal = new int[current.length];
        Arrays.fill(indexOfOrdinal, -1);
        for (int i = 0; i < names.length; i++) {
            for (T constant : current) {
                if (constant.name().equals(names[i])) {
                    values[i] = constant;
                    indexOfOrdinal[constant.ordinal()] = i;
                }
            }
        }
    }

    private static String[] namesOf(Class<?> enumClass) {
        Preconditions.checkNotNull(enumClass, "the enum class must not be null");
        Preconditions.checkArgument(enumClass.isEnum(), "%s is not an enum class", enumClass.getName());
        return Arrays.stream(enumClass.getEnumConstants()).map(c -> ((Enum<?>) c).name()).toArray(String[]::new);
    }

    /** The enum class. */
    public Class<T> getEnumClass() {
        return enumClass;
    }

    /** The constant names in the order of the indexes this serializer writes. */
    public String[] getConstantNames() {
        return names.clone();
    }

    @Override
    public boolean isImmutableType() {
        return true;
    }

    /** The first constant, or null for an enum without constants. */
    @Override
    public T createInstance() {
        return values.length == 0 ? null : values[0];
    }

    @Override
    public T copy(T from) {
        return from;
    }

    @Override
    public int getLength() {
        return names.length <= 128 ? 1 : -1;
    }

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        if (record == null) {
            throw new NullPointerException(String.format(
                    "EnumSerializer of %s cannot serialize null: filter out null values, or hold the enum in a POJO field"
                            + " or record component, which may be null", enumClass.getName()));
        }
        int index = indexOfOrdinal[record.ordinal()];
        if (index < 0) {
            throw new IllegalArgumentException(String.format(
                    "%s.%s was added after this serializer was created (it knows %s); rebuild the job with the current"
                            + " enum", enumClass.getName(), record.name(), Arrays.toString(names)));
        }
        target.writeVarInt(index);
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        int start = source.position();
        int index = source.readVarInt();
        if (index >= values.length) {
            throw new CorruptDataException(String.format(
                    "enum %s at position %s has index %s, but it has %s constants: the data is corrupt",
                    enumClass.getSimpleName(), start, index, values.length));
        }
        T value = values[index];
        if (value == null) {
            throw new CorruptDataException(String.format(
                    "enum %s at position %s is the constant %s, which the enum no longer has",
                    enumClass.getSimpleName(), start, names[index]));
        }
        return value;
    }

    /** Re-resolves the constants by name after Java deserialization. */
    private Object readResolve() throws ObjectStreamException {
        return new EnumSerializer<>(enumClass, names);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof EnumSerializer<?> other && enumClass == other.enumClass && Arrays.equals(names, other.names);
    }

    @Override
    public int hashCode() {
        return 31 * enumClass.getName().hashCode() + Arrays.hashCode(names);
    }

    @Override
    public String toString() {
        return "EnumSerializer<" + enumClass.getSimpleName() + Arrays.toString(names) + ">";
    }
}
