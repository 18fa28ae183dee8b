package dev.runnel.api.java.typeutils.runtime;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.io.ObjectStreamException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.Method;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * Serializes a Java {@link Record} as its components in declaration order, each with its own
 * serializer, and rebuilds it through its canonical constructor (so compact-constructor validation
 * runs on every value read back).
 *
 * <h2>Format</h2>
 * The components in order. A component of primitive type is written as its value; a component of
 * reference type is preceded by a presence byte (1, or 0 for null, with nothing after it), so
 * reference components may be null, unlike tuple fields. A record with no components is written as
 * one zero byte.
 *
 * <p>The accessors and the canonical constructor are resolved once, when the serializer is created
 * (and again after Java deserialization), as method handles: no reflection per record. If every
 * component serializer is immutable the record is too, and {@link #copy(Record)} returns it as is;
 * otherwise the copy is deep.
 *
 * <p>Thread-safe.
 *
 * @param <T> the record type
 */
public final class RecordSerializer<T extends Record> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> recordClass;
    private final TypeSerializer<Object>[] componentSerializers;
    /** Per component: true if it has a reference type, so may be null and carries a presence byte. */
    private final boolean[] nullable;
    private final boolean immutable;

    // Final, so a serializer handed to other threads is safely published; rebuilt by readResolve.
    private final transient MethodHandle[] accessors; // (Object) Object
    private final transient MethodHandle constructor; // (Object[]) Object
    private final transient Object[] defaults;

    @SuppressWarnings("unchecked")
    public RecordSerializer(Class<T> recordClass, TypeSerializer<?>[] componentSerializers) {
        this.recordClass = Preconditions.checkNotNull(recordClass, "the record class must not be null");
        Preconditions.checkArgument(recordClass.isRecord(), "%s is not a record class", recordClass.getName());
        Preconditions.checkNotNull(componentSerializers, "the component serializers must not be null");
        RecordComponent[] components = recordClass.getRecordComponents();
        Preconditions.checkArgument(components.length == componentSerializers.length,
                "record %s has %s components but %s component serializers were given",
                recordClass.getName(), components.length, componentSerializers.length);
        this.componentSerializers = (TypeSerializer<Object>[]) componentSerializers.clone();
        this.nullable = new boolean[components.length];
        boolean allImmutable = true;
        for (int i = 0; i < components.length; i++) {
            Preconditions.checkNotNull(componentSerializers[i], "the serializer of component %s of %s is null",
                    components[i].getName(), recordClass.getName());
            nullable[i] = !components[i].getType().isPrimitive();
            allImmutable &= componentSerializers[i].isImmutableType();
        }
        this.immutable = allImmutable;

        MethodHandles.Lookup lookup = MethodHandles.lookup();
        Class<?>[] types = new Class<?>[components.length];
        MethodHandle[] getters = new MethodHandle[components.length];
        Object[] zeros = new Object[components.length];
        try {
            for (int i = 0; i < components.length; i++) {
                Method accessor = components[i].getAccessor();
                accessor.setAccessible(true);
                getters[i] = lookup.unreflect(accessor).asType(MethodType.methodType(Object.class, Object.class));
                types[i] = components[i].getType();
                zeros[i] = types[i].isPrimitive() ? Array.get(Array.newInstance(types[i], 1), 0) : null;
            }
            Constructor<T> canonical = recordClass.getDeclaredConstructor(types);
            canonical.setAccessible(true);
            this.constructor = lookup.unreflectConstructor(canonical)
                    .asType(MethodType.genericMethodType(components.length))
                    .asSpreader(Object[].class, components.length);
        } catch (NoSuchMethodException | IllegalAccessException | RuntimeException e) {
            throw new IllegalArgumentException(String.format(
                    "cannot access the accessors or canonical constructor of record %s: %s; make the record"
                            + " accessible to Runnel (e.g. open its package)",
                    recordClass.getName(), e.getMessage()), e);
        }
        this.accessors = getters;
        this.defaults = zeros;
    }

    /** The record class this serializer writes and creates. */
    public Class<T> getRecordClass() {
        return recordClass;
    }

    /** The serializer of component {@code pos}, in declaration order. */
    public TypeSerializer<?> getComponentSerializer(int pos) {
        return componentSerializers[pos];
    }

    @Override
    public boolean isImmutableType() {
        return immutable;
    }

    /**
     * A record whose components are zero, false or null, or null if the canonical constructor rejects
     * those values. Records are immutable, so this is never filled in place; it exists for callers
     * that ask every serializer for a blank value.
     */
    @Override
    public T createInstance() {
        try {
            return construct(defaults.clone());
        } catch (CorruptDataException rejected) {
            return null;
        }
    }

    @Override
    public T copy(T from) {
        if (immutable) {
            return from;
        }
        Object[] values = new Object[componentSerializers.length];
        for (int i = 0; i < values.length; i++) {
            Object value = get(from, i);
            values[i] = value == null ? null : componentSerializers[i].copy(value);
        }
        try {
            return construct(values);
        } catch (IOException e) {
            throw new IllegalStateException(String.format(
                    "record %s rejected a copy of its own components: %s", recordClass.getName(), e.getCause()), e);
        }
    }

    @Override
    public int getLength() {
        if (componentSerializers.length == 0) {
            return 1;
        }
        int sum = 0;
        for (int i = 0; i < componentSerializers.length; i++) {
            int l = componentSerializers[i].getLength();
            if (l < 0 || nullable[i]) {
                return -1; // variable, or may be absent
            }
            sum += l;
        }
        return sum;
    }

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        if (record == null) {
            throw new NullPointerException(String.format(
                    "RecordSerializer for %s cannot serialize a null record", recordClass.getSimpleName()));
        }
        TypeSerializer<Object>[] serializers = componentSerializers;
        if (serializers.length == 0) {
            target.writeByte(0);
            return;
        }
        for (int i = 0; i < serializers.length; i++) {
            Object value = get(record, i);
            if (nullable[i]) {
                if (value == null) {
                    target.writeByte(0);
                    continue;
                }
                target.writeByte(1);
            }
            serializers[i].serialize(value, target);
        }
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        int start = source.position();
        TypeSerializer<Object>[] serializers = componentSerializers;
        if (serializers.length == 0) {
            readPresence(source, start, -1);
        }
        Object[] values = new Object[serializers.length];
        for (int i = 0; i < serializers.length; i++) {
            if (!nullable[i] || readPresence(source, start, i)) {
                values[i] = serializers[i].deserialize(source);
            }
        }
        try {
            return construct(values);
        } catch (CorruptDataException e) {
            throw new CorruptDataException(String.format("record %s at position %s: %s",
                    recordClass.getSimpleName(), start, e.getMessage()), e.getCause());
        }
    }

    /** Reads a presence byte (for component {@code i}, or the empty-record marker if -1). */
    private boolean readPresence(DataInputView source, int start, int i) throws IOException {
        int marker = source.readByte();
        if (marker == 1 && i >= 0) {
            return true;
        }
        if (marker == 0) {
            return false;
        }
        throw new CorruptDataException(String.format(
                "record %s at position %s: %s at position %s is the byte %s, expected %s: the data is corrupt",
                recordClass.getSimpleName(), start, i < 0 ? "the empty-record marker" : "the presence byte of component " + i,
                source.position() - 1, marker, i < 0 ? "0" : "0 or 1"));
    }

    private Object get(T record, int i) {
        try {
            return (Object) accessors[i].invokeExact((Object) record);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(String.format("the accessor of component %s of %s failed", i, recordClass.getName()), t);
        }
    }

    /** Runs the canonical constructor; a rejection (its validation threw) is reported as corrupt data. */
    @SuppressWarnings("unchecked")
    private T construct(Object[] values) throws CorruptDataException {
        try {
            return (T) (Object) constructor.invokeExact(values);
        } catch (Throwable t) {
            if (t instanceof Error e && !(t instanceof AssertionError)) {
                throw e;
            }
            throw new CorruptDataException(String.format(
                    "the canonical constructor rejected the deserialized components: %s", t), t);
        }
    }

    /** Rebuilds the method handles after Java deserialization. */
    private Object readResolve() throws ObjectStreamException {
        return new RecordSerializer<>(recordClass, componentSerializers);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof RecordSerializer<?> other
                && recordClass == other.recordClass
                && Arrays.equals(componentSerializers, other.componentSerializers);
    }

    @Override
    public int hashCode() {
        return 31 * recordClass.getName().hashCode() + Arrays.hashCode(componentSerializers);
    }

    @Override
    public String toString() {
        return "RecordSerializer<" + recordClass.getSimpleName() + Arrays.toString(componentSerializers) + ">";
    }
}
