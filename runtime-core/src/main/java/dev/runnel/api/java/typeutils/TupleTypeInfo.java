package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.BasicTypeInfo;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.tuple.Tuple;
import dev.runnel.api.java.typeutils.runtime.TupleSerializer;
import dev.runnel.util.Preconditions;
import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Type information of a tuple ({@code Tuple0..Tuple12} or a subclass) with the types of its fields.
 * A tuple is a key type if all its fields are. Immutable.
 *
 * @param <T> the tuple type
 */
public final class TupleTypeInfo<T extends Tuple> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> tupleType;
    private final TypeInformation<?>[] types;

    /** The plain tuple class with {@code types.length} fields. */
    @SuppressWarnings("unchecked")
    public TupleTypeInfo(TypeInformation<?>... types) {
        this((Class<T>) Tuple.getTupleClass(Preconditions.checkNotNull(types, "the field types must not be null").length), types);
    }

    /** A tuple class (possibly a subclass of a plain tuple class) and its field types. */
    public TupleTypeInfo(Class<T> tupleType, TypeInformation<?>... types) {
        this.tupleType = Preconditions.checkNotNull(tupleType, "the tuple class must not be null");
        Preconditions.checkNotNull(types, "the field types must not be null");
        for (int i = 0; i < types.length; i++) {
            Preconditions.checkNotNull(types[i], "the type of field f%s is null", i);
        }
        Preconditions.checkArgument(Tuple.class.isAssignableFrom(tupleType),
                "%s is not a tuple class", tupleType.getName());
        this.types = types.clone();
    }

    /** Tuple information of basic field classes, e.g. {@code getBasicTupleTypeInfo(String.class, Long.class)}. */
    public static <X extends Tuple> TupleTypeInfo<X> getBasicTupleTypeInfo(Class<?>... basicTypes) {
        TypeInformation<?>[] infos = new TypeInformation<?>[basicTypes.length];
        for (int i = 0; i < basicTypes.length; i++) {
            infos[i] = BasicTypeInfo.getInfoFor(basicTypes[i]);
            Preconditions.checkArgument(infos[i] != null, "%s (field f%s) is not a basic type", basicTypes[i], i);
        }
        return new TupleTypeInfo<>(infos);
    }

    /** The type of field {@code pos}. */
    @SuppressWarnings("unchecked")
    public <X> TypeInformation<X> getTypeAt(int pos) {
        Preconditions.checkArgument(pos >= 0 && pos < types.length, "field %s does not exist in %s", pos, this);
        return (TypeInformation<X>) types[pos];
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return true;
    }

    @Override
    public int getArity() {
        return types.length;
    }

    @Override
    public Class<T> getTypeClass() {
        return tupleType;
    }

    @Override
    public boolean isKeyType() {
        for (TypeInformation<?> type : types) {
            if (!type.isKeyType()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        TypeSerializer<?>[] fieldSerializers = new TypeSerializer<?>[types.length];
        for (int i = 0; i < types.length; i++) {
            try {
                fieldSerializers[i] = types[i].createSerializer(config);
            } catch (InvalidTypesException e) {
                throw new InvalidTypesException(String.format("field f%s of %s: %s", i, this, e.getMessage()), e);
            }
        }
        return new TupleSerializer<>(tupleType, fieldSerializers);
    }

    @Override
    public String toString() {
        String plain = "Tuple" + types.length + "<"
                + Arrays.stream(types).map(Object::toString).collect(Collectors.joining(", ")) + ">";
        return tupleType == Tuple.getTupleClass(types.length) ? plain : tupleType.getSimpleName() + "(" + plain + ")";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof TupleTypeInfo<?> other && tupleType == other.tupleType && Arrays.equals(types, other.types);
    }

    @Override
    public int hashCode() {
        return 31 * tupleType.getName().hashCode() + Arrays.hashCode(types);
    }
}
