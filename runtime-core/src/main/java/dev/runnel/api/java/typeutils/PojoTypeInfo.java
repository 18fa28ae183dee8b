package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.typeutils.runtime.PojoSerializer;
import dev.runnel.util.Preconditions;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;

/**
 * Type information of a POJO: a class that follows Flink's POJO rules (see {@link TypeExtractor}),
 * described by its fields, each with its own type information, and serialized field by field
 * ({@link PojoSerializer}) instead of by Kryo.
 *
 * <p>The fields are sorted by name, as in Flink; positions ({@link #getTypeAt(int)},
 * {@link #getPojoFieldAt(int)}) refer to that order, which is also the order of the serialized
 * fields. Fields may come from superclasses; their names are unique in the hierarchy.
 *
 * <p>A POJO is a key type if its class overrides both {@code equals} and {@code hashCode} (as Flink's
 * {@code keyBy} requires), since the key group follows from the hash code. Immutable.
 *
 * @param <T> the POJO class
 */
public final class PojoTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> typeClass;
    private final PojoField[] fields;

    /** The POJO class and its fields, in any order (they are sorted by name here). */
    public PojoTypeInfo(Class<T> typeClass, List<PojoField> fields) {
        this.typeClass = Preconditions.checkNotNull(typeClass, "the POJO class must not be null");
        Preconditions.checkNotNull(fields, "the fields must not be null");
        Preconditions.checkArgument(Modifier.isPublic(typeClass.getModifiers()), "POJO class %s must be public",
                typeClass.getName());
        PojoField[] sorted = fields.toArray(new PojoField[0]);
        Arrays.sort(sorted, Comparator.comparing((PojoField f) -> f.getField().getName()));
        for (int i = 0; i < sorted.length; i++) {
            Field f = sorted[i].getField();
            Preconditions.checkArgument(f.getDeclaringClass().isAssignableFrom(typeClass), "%s is not a field of %s",
                    f, typeClass.getName());
            Preconditions.checkArgument(i == 0 || !sorted[i - 1].getField().getName().equals(f.getName()),
                    "%s has two fields named '%s'", typeClass.getName(), f.getName());
        }
        this.fields = sorted;
    }

    /** The field at {@code pos}, in name order. */
    public PojoField getPojoFieldAt(int pos) {
        Preconditions.checkArgument(pos >= 0 && pos < fields.length, "field %s does not exist in %s", pos, this);
        return fields[pos];
    }

    /** The field names, sorted. */
    public String[] getFieldNames() {
        return Arrays.stream(fields).map(f -> f.getField().getName()).toArray(String[]::new);
    }

    /** The position of the field named {@code fieldName}, or -1 if there is none. */
    public int getFieldIndex(String fieldName) {
        for (int i = 0; i < fields.length; i++) {
            if (fields[i].getField().getName().equals(fieldName)) {
                return i;
            }
        }
        return -1;
    }

    /** The type of the field at {@code pos}, in name order. */
    @SuppressWarnings("unchecked")
    public <X> TypeInformation<X> getTypeAt(int pos) {
        return (TypeInformation<X>) getPojoFieldAt(pos).getTypeInformation();
    }

    /**
     * The type of a field named by an expression: a field name, or a path through nested POJOs such
     * as {@code "customer.address"}.
     *
     * @throws InvalidTypesException naming the part of the expression that does not exist
     */
    @SuppressWarnings("unchecked")
    public <X> TypeInformation<X> getTypeAt(String fieldExpression) {
        Preconditions.checkNotNull(fieldExpression, "the field expression must not be null");
        int dot = fieldExpression.indexOf('.');
        String head = dot < 0 ? fieldExpression : fieldExpression.substring(0, dot);
        int index = getFieldIndex(head);
        if (index < 0) {
            throw new InvalidTypesException(String.format("%s has no field '%s'; its fields are %s",
                    typeClass.getName(), head, Arrays.toString(getFieldNames())));
        }
        TypeInformation<?> type = fields[index].getTypeInformation();
        if (dot < 0) {
            return (TypeInformation<X>) type;
        }
        if (!(type instanceof PojoTypeInfo<?> nested)) {
            throw new InvalidTypesException(String.format("field '%s' of %s is a %s, not a POJO, so '%s' cannot select"
                    + " inside it", head, typeClass.getName(), type, fieldExpression));
        }
        return nested.getTypeAt(fieldExpression.substring(dot + 1));
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    /** The number of fields. */
    @Override
    public int getArity() {
        return fields.length;
    }

    @Override
    public Class<T> getTypeClass() {
        return typeClass;
    }

    @Override
    public boolean isKeyType() {
        try {
            return typeClass.getMethod("hashCode").getDeclaringClass() != Object.class
                    && typeClass.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * A {@link PojoSerializer} with a serializer for each field from its type.
     *
     * @throws InvalidTypesException if a field's type cannot be serialized as configured (typically a
     *     field that falls back to Kryo without a registration), naming the field's path from this
     *     class, e.g. {@code com.example.Order.customer.address}
     */
    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return createSerializer(config, typeClass.getName());
    }

    private TypeSerializer<T> createSerializer(SerializerConfig config, String path) {
        TypeSerializer<?>[] serializers = new TypeSerializer<?>[fields.length];
        Field[] javaFields = new Field[fields.length];
        for (int i = 0; i < fields.length; i++) {
            javaFields[i] = fields[i].getField();
            serializers[i] = fieldSerializer(fields[i], config, path + "." + javaFields[i].getName());
        }
        return new PojoSerializer<>(typeClass, serializers, javaFields, config);
    }

    private static TypeSerializer<?> fieldSerializer(PojoField field, SerializerConfig config, String path) {
        TypeInformation<?> type = field.getTypeInformation();
        if (type instanceof PojoTypeInfo<?> nested) {
            return nested.createSerializer(config, path);
        }
        try {
            return type.createSerializer(config);
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException(String.format("field %s (%s): %s", path, type, e.getMessage()), e);
        }
    }

    @Override
    public String toString() {
        return "PojoType<" + typeClass.getName() + ", fields = ["
                + Arrays.stream(fields).map(PojoField::toString).collect(Collectors.joining(", ")) + "]>";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof PojoTypeInfo<?> other && typeClass == other.typeClass && Arrays.equals(fields, other.fields);
    }

    @Override
    public int hashCode() {
        return 31 * typeClass.getName().hashCode() + Arrays.hashCode(fields);
    }
}
