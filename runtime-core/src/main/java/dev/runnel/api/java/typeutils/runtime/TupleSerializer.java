package dev.runnel.api.java.typeutils.runtime;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.tuple.Tuple;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.io.ObjectStreamException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.Modifier;
import java.util.Arrays;

/**
 * Serializes a {@link Tuple} (one of {@code Tuple0..Tuple12}, or a subclass such as
 * {@code class WordCount extends Tuple2<String, Integer>}) as its fields in order, each with its own
 * serializer; nothing else is written, except one marker byte for a tuple with no fields.
 *
 * <p>Fields must not be null unless their serializer {@linkplain TypeSerializer#acceptsNull() accepts
 * null}; a null field fails with a message naming the field. {@link #copy(Tuple)} copies each field
 * with its serializer (deep for mutable fields, the same instance for immutable ones).
 *
 * <p>Thread-safe. Instances of the plain tuple classes are created without reflection; a subclass
 * needs a no-arg constructor (of any visibility), looked up once when the serializer is created.
 *
 * @param <T> the tuple type
 */
public final class TupleSerializer<T extends Tuple> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    private static final int NO_FIELDS_MARKER = 0;

    private final Class<T> tupleClass;
    private final TypeSerializer<Object>[] fieldSerializers;
    private final int length;

    /**
     * Null for the plain {@code TupleN} classes, which {@link Tuple#newInstance(int)} creates directly.
     * Final, so a serializer handed to other threads is safely published; rebuilt by readResolve.
     */
    private final transient MethodHandle subclassConstructor;

    @SuppressWarnings("unchecked")
    public TupleSerializer(Class<T> tupleClass, TypeSerializer<?>[] fieldSerializers) {
        this.tupleClass = Preconditions.checkNotNull(tupleClass, "the tuple class must not be null");
        Preconditions.checkNotNull(fieldSerializers, "the field serializers must not be null");
        Preconditions.checkArgument(Tuple.class.isAssignableFrom(tupleClass) && tupleClass != Tuple.class
                        && !Modifier.isAbstract(tupleClass.getModifiers()),
                "%s is not a concrete tuple class (Tuple0..Tuple%s or a subclass)", tupleClass.getName(), Tuple.MAX_ARITY);
        int arity = arityOf(tupleClass);
        Preconditions.checkArgument(fieldSerializers.length == arity,
                "%s has %s fields but %s field serializers were given", tupleClass.getName(), arity, fieldSerializers.length);
        for (int i = 0; i < arity; i++) {
            Preconditions.checkNotNull(fieldSerializers[i], "the serializer of field f%s of %s is null", i, tupleClass.getName());
        }
        this.fieldSerializers = (TypeSerializer<Object>[]) fieldSerializers.clone();
        this.length = fixedLength(this.fieldSerializers);
        this.subclassConstructor = tupleClass == Tuple.getTupleClass(arity) ? null : subclassConstructor(tupleClass);
    }

    private static int arityOf(Class<?> tupleClass) {
        for (Class<?> c = tupleClass; c != Tuple.class; c = c.getSuperclass()) {
            for (int arity = 0; arity <= Tuple.MAX_ARITY; arity++) {
                if (c == Tuple.getTupleClass(arity)) {
                    return arity;
                }
            }
        }
        throw new IllegalArgumentException(String.format(
                "%s extends Tuple directly; extend one of Tuple0..Tuple%s instead", tupleClass.getName(), Tuple.MAX_ARITY));
    }

    private static int fixedLength(TypeSerializer<?>[] serializers) {
        if (serializers.length == 0) {
            return 1;
        }
        int sum = 0;
        for (TypeSerializer<?> s : serializers) {
            if (s.getLength() < 0) {
                return -1;
            }
            sum += s.getLength();
        }
        return sum;
    }

    private static MethodHandle subclassConstructor(Class<?> tupleClass) {
        try {
            Constructor<?> constructor = tupleClass.getDeclaredConstructor();
            constructor.setAccessible(true);
            return MethodHandles.lookup().unreflectConstructor(constructor).asType(MethodType.methodType(Object.class));
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException(String.format(
                    "tuple class %s has no no-arg constructor; add one (any visibility) so that its serializer"
                            + " can create instances",
                    tupleClass.getName()), e);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalArgumentException(String.format(
                    "cannot access the no-arg constructor of tuple class %s: %s; make it accessible to Runnel"
                            + " (e.g. open its package)",
                    tupleClass.getName(), e.getMessage()), e);
        }
    }

    /** The tuple class this serializer writes and creates. */
    public Class<T> getTupleClass() {
        return tupleClass;
    }

    /** The number of fields. */
    public int getArity() {
        return fieldSerializers.length;
    }

    /** The serializer of field {@code pos}. */
    public TypeSerializer<?> getFieldSerializer(int pos) {
        return fieldSerializers[pos];
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public T createInstance() {
        T tuple = newTuple();
        for (int i = 0; i < fieldSerializers.length; i++) {
            tuple.setField(fieldSerializers[i].createInstance(), i);
        }
        return tuple;
    }

    @SuppressWarnings("unchecked")
    private T newTuple() {
        if (subclassConstructor == null) {
            return (T) Tuple.newInstance(fieldSerializers.length);
        }
        try {
            return (T) (Object) subclassConstructor.invokeExact();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException(String.format("the constructor of %s failed", tupleClass.getName()), t);
        }
    }

    @Override
    public T copy(T from) {
        T copy = newTuple();
        for (int i = 0; i < fieldSerializers.length; i++) {
            Object field = from.getField(i);
            copy.setField(field == null ? null : fieldSerializers[i].copy(field), i);
        }
        return copy;
    }

    @Override
    public T copy(T from, T reuse) {
        if (reuse == null) {
            return copy(from);
        }
        for (int i = 0; i < fieldSerializers.length; i++) {
            Object field = from.getField(i);
            Object old = reuse.getField(i);
            reuse.setField(field == null ? null
                    : old == null ? fieldSerializers[i].copy(field) : fieldSerializers[i].copy(field, old), i);
        }
        return reuse;
    }

    @Override
    public int getLength() {
        return length;
    }

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        if (record == null) {
            throw new NullPointerException(String.format("TupleSerializer for %s cannot serialize a null tuple", tupleClass.getSimpleName()));
        }
        TypeSerializer<Object>[] serializers = fieldSerializers;
        if (serializers.length == 0) {
            target.writeByte(NO_FIELDS_MARKER);
            return;
        }
        for (int i = 0; i < serializers.length; i++) {
            Object field = record.getField(i);
            if (field == null && !serializers[i].acceptsNull()) {
                throw nullField(record, i);
            }
            serializers[i].serialize(field, target);
        }
    }

    private NullPointerException nullField(T record, int pos) {
        return new NullPointerException(String.format(
                "field f%s (index %s) of a %s is null, and tuple fields cannot be null: set a value, or use a record"
                        + " type, whose components may be null",
                pos, pos, record.getClass().getSimpleName()));
    }

    @Override
    public T deserialize(DataInputView source) throws IOException {
        TypeSerializer<Object>[] serializers = fieldSerializers;
        if (serializers.length == 0) {
            readNoFieldsMarker(source);
            return newTuple();
        }
        T tuple = newTuple();
        for (int i = 0; i < serializers.length; i++) {
            tuple.setField(serializers[i].deserialize(source), i);
        }
        return tuple;
    }

    @Override
    public T deserialize(T reuse, DataInputView source) throws IOException {
        if (reuse == null) {
            return deserialize(source);
        }
        TypeSerializer<Object>[] serializers = fieldSerializers;
        if (serializers.length == 0) {
            readNoFieldsMarker(source);
            return reuse;
        }
        for (int i = 0; i < serializers.length; i++) {
            Object old = reuse.getField(i);
            reuse.setField(old == null ? serializers[i].deserialize(source) : serializers[i].deserialize(old, source), i);
        }
        return reuse;
    }

    private static void readNoFieldsMarker(DataInputView source) throws IOException {
        int marker = source.readByte();
        if (marker != NO_FIELDS_MARKER) {
            throw new CorruptDataException(String.format(
                    "Tuple0 at position %s is the byte %s, expected %s: the data is corrupt",
                    source.position() - 1, marker, NO_FIELDS_MARKER));
        }
    }

    /** Rebuilds the constructor handle after Java deserialization. */
    private Object readResolve() throws ObjectStreamException {
        return new TupleSerializer<>(tupleClass, fieldSerializers);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof TupleSerializer<?> other
                && tupleClass == other.tupleClass
                && Arrays.equals(fieldSerializers, other.fieldSerializers);
    }

    @Override
    public int hashCode() {
        return 31 * tupleClass.getName().hashCode() + Arrays.hashCode(fieldSerializers);
    }

    @Override
    public String toString() {
        return "TupleSerializer<" + tupleClass.getSimpleName() + Arrays.toString(fieldSerializers) + ">";
    }
}
