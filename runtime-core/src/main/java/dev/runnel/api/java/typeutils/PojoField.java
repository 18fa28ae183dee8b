package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.util.Objects;

/**
 * One field of a POJO type: the Java field (possibly declared by a superclass) and the type
 * information of its values. Immutable. Java-serializable although {@link Field} is not: the field
 * travels as its declaring class and name and is looked up again when read.
 */
public final class PojoField implements Serializable {

    private static final long serialVersionUID = 1L;

    private transient Field field;
    private final TypeInformation<?> type;

    public PojoField(Field field, TypeInformation<?> type) {
        this.field = Preconditions.checkNotNull(field, "the field must not be null");
        this.type = Preconditions.checkNotNull(type, "the type of field %s must not be null", field.getName());
    }

    /** The Java field. */
    public Field getField() {
        return field;
    }

    /** The type information of the field's values. */
    public TypeInformation<?> getTypeInformation() {
        return type;
    }

    private void writeObject(ObjectOutputStream out) throws IOException {
        out.defaultWriteObject();
        out.writeObject(field.getDeclaringClass());
        out.writeUTF(field.getName());
    }

    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        Class<?> declaring = (Class<?>) in.readObject();
        String name = in.readUTF();
        try {
            field = declaring.getDeclaredField(name);
        } catch (NoSuchFieldException e) {
            InvalidObjectException invalid = new InvalidObjectException(String.format(
                    "POJO field %s.%s no longer exists; the class changed since the type was described",
                    declaring.getName(), name));
            invalid.initCause(e);
            throw invalid;
        }
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof PojoField other && field.equals(other.field) && type.equals(other.type);
    }

    @Override
    public int hashCode() {
        return Objects.hash(field.getDeclaringClass().getName(), field.getName(), type);
    }

    @Override
    public String toString() {
        return field.getName() + ": " + type;
    }
}
