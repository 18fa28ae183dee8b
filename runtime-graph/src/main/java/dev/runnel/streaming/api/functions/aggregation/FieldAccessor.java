package dev.runnel.streaming.api.functions.aggregation;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.tuple.Tuple;
import dev.runnel.api.java.typeutils.PojoTypeInfo;
import java.io.Serializable;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * Reads one field of a record and makes a copy of the record with that field replaced: tuple fields
 * by position, Java record components and POJO fields by name, or the value itself for basic types
 * (position 0). Built once per operator; reflection is resolved when it is created, never per record.
 */
abstract class FieldAccessor<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    abstract Object get(T record);

    /** A record equal to {@code record} except that the field holds {@code value}. */
    abstract T withField(T record, Object value);

    static <T> FieldAccessor<T> forPosition(TypeInformation<T> type, int position) {
        Class<T> cls = type.getTypeClass();
        if (Tuple.class.isAssignableFrom(cls)) {
            if (position < 0 || position >= type.getArity()) {
                throw new IllegalArgumentException("Field position " + position + " is outside " + type
                        + " (arity " + type.getArity() + ")");
            }
            return new TupleField<>(position);
        }
        if (type.isBasicType()) {
            if (position != 0) {
                throw new IllegalArgumentException("A stream of " + type + " has one field, position 0; got " + position);
            }
            return new SelfField<>();
        }
        if (cls.isRecord()) {
            RecordComponent[] components = cls.getRecordComponents();
            if (position < 0 || position >= components.length) {
                throw new IllegalArgumentException("Field position " + position + " is outside record " + cls.getName());
            }
            return new RecordField<>(cls, components[position].getName());
        }
        if (type instanceof PojoTypeInfo<?> pojo) {
            throw new IllegalArgumentException(String.format("Aggregation by position is not possible on the POJO type %s"
                    + " (as in Flink); aggregate by field name instead, e.g. sum(\"%s\")", type,
                    pojo.getArity() > 0 ? pojo.getFieldNames()[0] : "field"));
        }
        throw new IllegalArgumentException("Aggregation by position needs tuples, records or basic types, not " + type);
    }

    /** {@code config} configures the serializer that copies a POJO before its field is replaced. */
    static <T> FieldAccessor<T> forName(TypeInformation<T> type, String field, SerializerConfig config) {
        Class<T> cls = type.getTypeClass();
        if (cls.isRecord()) {
            return new RecordField<>(cls, field);
        }
        if (type instanceof PojoTypeInfo<T> pojo) {
            int index = pojo.getFieldIndex(field);
            if (index < 0) {
                throw new IllegalArgumentException(String.format("the POJO type %s has no field '%s'; its fields are %s",
                        type.getTypeClass().getName(), field, Arrays.toString(pojo.getFieldNames())));
            }
            return new PojoField<>(pojo.getPojoFieldAt(index).getField(), pojo.createSerializer(config));
        }
        if (Tuple.class.isAssignableFrom(cls) && field.matches("f\\d+")) {
            return forPosition(type, Integer.parseInt(field.substring(1)));
        }
        throw new IllegalArgumentException("Aggregation by field name needs a POJO or a Java record (or a tuple field"
                + " 'fN'); " + type + " has no field '" + field + "'");
    }

    private static final class SelfField<T> extends FieldAccessor<T> {
        private static final long serialVersionUID = 1L;

        @Override
        Object get(T record) {
            return record;
        }

        @Override
        @SuppressWarnings("unchecked")
        T withField(T record, Object value) {
            return (T) value;
        }
    }

    private static final class TupleField<T> extends FieldAccessor<T> {
        private static final long serialVersionUID = 1L;
        private final int position;

        TupleField(int position) {
            this.position = position;
        }

        @Override
        Object get(T record) {
            return ((Tuple) record).getField(position);
        }

        @Override
        @SuppressWarnings("unchecked")
        T withField(T record, Object value) {
            Tuple copy = ((Tuple) record).copy();
            copy.setField(value, position);
            return (T) copy;
        }
    }

    private static final class RecordField<T> extends FieldAccessor<T> {
        private static final long serialVersionUID = 1L;
        private final Class<T> type;
        private final String name;
        private transient MethodHandle[] accessors;
        private transient MethodHandle constructor;
        private transient int index;

        RecordField(Class<T> type, String name) {
            this.type = type;
            this.name = name;
            resolve();
        }

        private void resolve() {
            RecordComponent[] components = type.getRecordComponents();
            accessors = new MethodHandle[components.length];
            Class<?>[] types = new Class<?>[components.length];
            index = -1;
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                for (int i = 0; i < components.length; i++) {
                    java.lang.reflect.Method m = components[i].getAccessor();
                    m.setAccessible(true);
                    accessors[i] = lookup.unreflect(m);
                    types[i] = components[i].getType();
                    if (components[i].getName().equals(name)) {
                        index = i;
                    }
                }
                Constructor<T> c = type.getDeclaredConstructor(types);
                c.setAccessible(true);
                constructor = lookup.unreflectConstructor(c);
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalArgumentException("Cannot access the components of record " + type.getName()
                        + " (is it accessible?): " + e, e);
            }
            if (index < 0) {
                throw new IllegalArgumentException("Record " + type.getName() + " has no component '" + name + "'");
            }
        }

        private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
            in.defaultReadObject();
            resolve();
        }

        @Override
        Object get(T record) {
            try {
                return accessors[index].invoke(record);
            } catch (Throwable t) {
                throw new IllegalStateException("Cannot read " + type.getSimpleName() + "." + name, t);
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        T withField(T record, Object value) {
            Object[] args = new Object[accessors.length];
            try {
                for (int i = 0; i < args.length; i++) {
                    args[i] = i == index ? value : accessors[i].invoke(record);
                }
                return (T) constructor.invokeWithArguments(args);
            } catch (Throwable t) {
                throw new IllegalStateException("Cannot rebuild " + type.getSimpleName() + " with " + name + "=" + value, t);
            }
        }
    }

    /**
     * A POJO field, read and written through method handles; the record is copied with the POJO's
     * serializer (deeply, as Flink does) before the field of the copy is replaced.
     */
    private static final class PojoField<T> extends FieldAccessor<T> {
        private static final long serialVersionUID = 1L;
        private final Class<?> declaringClass;
        private final String name;
        private final TypeSerializer<T> serializer;
        private transient MethodHandle getter;
        private transient MethodHandle setter;

        PojoField(Field field, TypeSerializer<T> serializer) {
            this.declaringClass = field.getDeclaringClass();
            this.name = field.getName();
            this.serializer = serializer;
            resolve();
        }

        private void resolve() {
            try {
                Field field = declaringClass.getDeclaredField(name);
                field.setAccessible(true);
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                getter = lookup.unreflectGetter(field).asType(MethodType.methodType(Object.class, Object.class));
                setter = lookup.unreflectSetter(field).asType(MethodType.methodType(void.class, Object.class, Object.class));
            } catch (ReflectiveOperationException | RuntimeException e) {
                throw new IllegalArgumentException(String.format("Cannot access POJO field %s.%s (is it accessible?): %s",
                        declaringClass.getName(), name, e), e);
            }
        }

        private void readObject(java.io.ObjectInputStream in) throws java.io.IOException, ClassNotFoundException {
            in.defaultReadObject();
            resolve();
        }

        @Override
        Object get(T record) {
            try {
                return (Object) getter.invokeExact((Object) record);
            } catch (Throwable t) {
                throw new IllegalStateException(String.format("Cannot read %s.%s", declaringClass.getSimpleName(), name), t);
            }
        }

        @Override
        T withField(T record, Object value) {
            T copy = serializer.copy(record);
            try {
                setter.invokeExact((Object) copy, value);
            } catch (Throwable t) {
                throw new IllegalStateException(String.format("Cannot set %s.%s to %s", declaringClass.getSimpleName(),
                        name, value), t);
            }
            return copy;
        }
    }
}
