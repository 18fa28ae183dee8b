package dev.runnel.api.java.typeutils.runtime;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.io.InvalidObjectException;
import java.io.ObjectStreamException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Serializes a POJO field by field, each field with the serializer of its type; see
 * {@code PojoTypeInfo} for which classes are POJOs.
 *
 * <h2>Format</h2>
 * <pre>
 *   header byte: 0 = null, 1 = an instance of exactly the POJO class, 2 = an instance of a subclass
 *   1: the fields in name order; a primitive field is its bare value, any other field is a presence
 *      byte (1, or 0 for null with nothing after it) followed by the value
 *   2: the subclass's name (as StringSerializer writes it), then the value as the subclass's own
 *      serializer writes it
 * </pre>
 * Null values and null fields are therefore allowed, as in Flink.
 *
 * <h2>Subclasses</h2>
 * A value whose class is a subclass of the POJO class is written by the subclass's own serializer,
 * found as Flink does: a {@code PojoSerializer} if the subclass is itself a POJO, otherwise Kryo,
 * which Runnel allows only for classes registered with {@code registerKryoType} (or with registration
 * turned off); anything else fails naming the subclass and the fix. On reading, a class name is only
 * accepted if it names a subclass of the POJO class (loaded without initializing it), so crafted bytes
 * cannot make Runnel instantiate unrelated classes. Subclass serializers are created once per class
 * and cached.
 *
 * <h2>Access and copies</h2>
 * Fields are read and written through method handles resolved when the serializer is created (and
 * again after Java deserialization), instances come from the public no-argument constructor: no
 * reflection per record. {@link #copy(Object)} copies field by field, deeply for fields of mutable
 * types. POJOs are mutable, so {@link #isImmutableType()} is false.
 *
 * <p>Thread-safe.
 *
 * @param <T> the POJO class
 */
public final class PojoSerializer<T> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    private static final int NULL = 0;
    private static final int EXACT = 1;
    private static final int SUBCLASS = 2;

    private final Class<T> clazz;
    private final TypeSerializer<Object>[] fieldSerializers;
    /** The fields, as declaring class and name: {@link Field} is not serializable. */
    private final Class<?>[] declaringClasses;
    private final String[] fieldNames;
    private final SerializerConfig config;

    // Final, so a serializer handed to other threads is safely published; rebuilt by readResolve.
    private final transient Field[] fields;
    private final transient PojoFieldCodec[] codecs;
    /** ()Object; null for an abstract POJO class, whose values are all subclass instances. */
    private final transient MethodHandle constructor;
    private final transient ConcurrentHashMap<Class<?>, TypeSerializer<Object>> subclassSerializers;
    private final transient ConcurrentHashMap<String, Class<?>> subclassesByName;

    /**
     * A serializer of {@code clazz} writing {@code fields[i]} with {@code fieldSerializers[i]}, in the
     * given order; {@code config} configures the serializers of subclasses.
     *
     * @throws IllegalArgumentException if a field or the no-argument constructor cannot be accessed
     */
    @SuppressWarnings("unchecked")
    public PojoSerializer(Class<T> clazz, TypeSerializer<?>[] fieldSerializers, Field[] fields, SerializerConfig config) {
        this.clazz = Preconditions.checkNotNull(clazz, "the POJO class must not be null");
        Preconditions.checkNotNull(fieldSerializers, "the field serializers must not be null");
        Preconditions.checkNotNull(fields, "the fields must not be null");
        Preconditions.checkArgument(fields.length == fieldSerializers.length, "%s fields but %s field serializers",
                fields.length, fieldSerializers.length);
        this.config = Preconditions.checkNotNull(config, "the serializer config must not be null");
        this.fieldSerializers = (TypeSerializer<Object>[]) fieldSerializers.clone();
        this.fields = fields.clone();
        this.declaringClasses = new Class<?>[fields.length];
        this.fieldNames = new String[fields.length];
        this.codecs = new PojoFieldCodec[fields.length];
        for (int i = 0; i < fields.length; i++) {
            Preconditions.checkNotNull(fields[i], "field %s of %s is null", i, clazz.getName());
            Preconditions.checkNotNull(fieldSerializers[i], "the serializer of %s is null", fields[i]);
            Preconditions.checkArgument(fields[i].getDeclaringClass().isAssignableFrom(clazz), "%s is not a field of %s",
                    fields[i], clazz.getName());
            declaringClasses[i] = fields[i].getDeclaringClass();
            fieldNames[i] = fields[i].getName();
            codecs[i] = PojoFieldCodec.of(fields[i], fieldSerializers[i]);
        }
        this.constructor = constructor(clazz);
        this.subclassSerializers = new ConcurrentHashMap<>();
        this.subclassesByName = new ConcurrentHashMap<>();
    }

    private static MethodHandle constructor(Class<?> clazz) {
        if (Modifier.isAbstract(clazz.getModifiers())) {
            return null;
        }
        try {
            Constructor<?> c = clazz.getDeclaredConstructor();
            c.setAccessible(true);
            return MethodHandles.lookup().unreflectConstructor(c).asType(MethodType.methodType(Object.class));
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(String.format(
                    "POJO class %s has no no-argument constructor; add a public one", clazz.getName()), e);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalArgumentException(String.format(
                    "cannot access the no-argument constructor of POJO class %s: %s; make it accessible to Runnel"
                            + " (e.g. open its package)", clazz.getName(), e.getMessage()), e);
        }
    }

    /** The POJO class. */
    public Class<T> getPojoClass() {
        return clazz;
    }

    /** The fields, in serialization order. */
    public Field[] getFields() {
        return fields.clone();
    }

    /** The serializer of the field at {@code pos}. */
    public TypeSerializer<?> getFieldSerializer(int pos) {
        return fieldSerializers[pos];
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public boolean acceptsNull() {
        return true;
    }

    /** A new instance from the no-argument constructor; null for an abstract POJO class. */
    @Override
    @SuppressWarnings("unchecked")
    public T createInstance() {
        if (constructor == null) {
            return null;
        }
        try {
            return (T) (Object) constructor.invokeExact();
        } catch (Throwable t) {
            if (t instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException(String.format("the no-argument constructor of %s threw %s",
                    clazz.getName(), t), t);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public T copy(T from) {
        if (from == null) {
            return null;
        }
        if (from.getClass() != clazz) {
            return (T) subclassSerializer(from.getClass()).copy(from);
        }
        T copy = createInstance();
        for (PojoFieldCodec codec : codecs) {
            codec.copy(from, copy, false);
        }
        return copy;
    }

    @Override
    public T copy(T from, T reuse) {
        if (from == null || reuse == null || from.getClass() != clazz || reuse.getClass() != clazz) {
            return copy(from);
        }
        for (PojoFieldCodec codec : codecs) {
            codec.copy(from, reuse, true);
        }
        return reuse;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        if (record == null) {
            target.writeByte(NULL);
            return;
        }
        Class<?> actual = record.getClass();
        if (actual == clazz) {
            target.writeByte(EXACT);
            for (PojoFieldCodec codec : codecs) {
                codec.write(record, target);
            }
            return;
        }
        TypeSerializer<Object> subclass = subclassSerializer(actual);
        target.writeByte(SUBCLASS);
        StringSerializer.INSTANCE.serialize(actual.getName(), target);
        subclass.serialize(record, target);
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        return deserialize(null, source);
    }

    @Override
    @SuppressWarnings("unchecked")
    public T deserialize(T reuse, DataInputView source) throws IOException {
        int start = source.position();
        int header = source.readByte();
        if (header == EXACT) {
            boolean reusing = reuse != null && reuse.getClass() == clazz;
            T target = reusing ? reuse : createInstance();
            if (target == null) {
                throw new CorruptDataException(String.format(
                        "%s at position %s claims an instance of the abstract class itself: the data is corrupt",
                        clazz.getSimpleName(), start));
            }
            for (PojoFieldCodec codec : codecs) {
                codec.read(target, source, reusing);
            }
            return target;
        }
        if (header == NULL) {
            return null;
        }
        if (header == SUBCLASS) {
            return (T) readSubclass(source, start);
        }
        throw new CorruptDataException(String.format(
                "%s at position %s has header byte %s, expected 0 (null), 1 (the class) or 2 (a subclass): the data is"
                        + " corrupt", clazz.getSimpleName(), start, header));
    }

    private Object readSubclass(DataInputView source, int start) throws IOException {
        String name = StringSerializer.INSTANCE.deserialize(source);
        Class<?> subclass = subclassesByName.get(name);
        if (subclass == null) {
            subclass = loadSubclass(name, start);
            subclassesByName.putIfAbsent(name, subclass);
        }
        try {
            return subclassSerializer(subclass).deserialize(source);
        } catch (InvalidTypesException e) {
            throw new CorruptDataException(String.format("%s at position %s holds a %s, which cannot be read here: %s",
                    clazz.getSimpleName(), start, name, e.getMessage()), e);
        }
    }

    /** Loads a subclass named in the data, without initializing it, and only if it is a subclass. */
    private Class<?> loadSubclass(String name, int start) throws CorruptDataException {
        Class<?> c;
        try {
            ClassLoader loader = clazz.getClassLoader() != null ? clazz.getClassLoader()
                    : Thread.currentThread().getContextClassLoader();
            c = Class.forName(name, false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw new CorruptDataException(String.format(
                    "%s at position %s names the subclass %s, which cannot be loaded: %s", clazz.getSimpleName(), start,
                    name, e), e);
        }
        if (c == clazz || !clazz.isAssignableFrom(c)) {
            throw new CorruptDataException(String.format(
                    "%s at position %s names the class %s, which is not a subclass of %s: the data is corrupt",
                    clazz.getSimpleName(), start, name, clazz.getName()));
        }
        return c;
    }

    /**
     * The serializer of a subclass: its own POJO serializer, or Kryo if the config allows Kryo for it.
     *
     * @throws InvalidTypesException naming the subclass when neither applies
     */
    @SuppressWarnings("unchecked")
    private TypeSerializer<Object> subclassSerializer(Class<?> subclass) {
        TypeSerializer<Object> cached = subclassSerializers.get(subclass);
        if (cached != null) {
            return cached;
        }
        TypeSerializer<Object> created;
        try {
            TypeInformation<?> info = TypeExtractor.createTypeInfo(subclass);
            created = (TypeSerializer<Object>) info.createSerializer(config);
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException(String.format(
                    "a %s is a subclass of the POJO type %s and is written with its own serializer, but it has none: %s",
                    subclass.getName(), clazz.getName(), e.getMessage()), e);
        }
        TypeSerializer<Object> raced = subclassSerializers.putIfAbsent(subclass, created);
        return raced != null ? raced : created;
    }

    /** Looks the fields up again and rebuilds the handles after Java deserialization. */
    private Object readResolve() throws ObjectStreamException {
        Field[] resolved = new Field[fieldNames.length];
        for (int i = 0; i < resolved.length; i++) {
            try {
                resolved[i] = declaringClasses[i].getDeclaredField(fieldNames[i]);
            } catch (NoSuchFieldException e) {
                InvalidObjectException invalid = new InvalidObjectException(String.format(
                        "POJO field %s.%s no longer exists; the class changed since the serializer was created",
                        declaringClasses[i].getName(), fieldNames[i]));
                invalid.initCause(e);
                throw invalid;
            }
        }
        return new PojoSerializer<>(clazz, fieldSerializers, resolved, config);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof PojoSerializer<?> other
                && clazz == other.clazz
                && Arrays.equals(declaringClasses, other.declaringClasses)
                && Arrays.equals(fieldNames, other.fieldNames)
                && Arrays.equals(fieldSerializers, other.fieldSerializers)
                && config.equals(other.config);
    }

    @Override
    public int hashCode() {
        return Objects.hash(clazz.getName(), Arrays.hashCode(fieldNames), Arrays.hashCode(fieldSerializers), config);
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("PojoSerializer<").append(clazz.getSimpleName()).append('[');
        for (int i = 0; i < fieldNames.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(fieldNames[i]).append(": ").append(fieldSerializers[i]);
        }
        return sb.append("]>").toString();
    }
}
