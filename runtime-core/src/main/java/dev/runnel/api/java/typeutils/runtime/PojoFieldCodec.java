package dev.runnel.api.java.typeutils.runtime;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.BooleanSerializer;
import dev.runnel.api.common.typeutils.base.ByteSerializer;
import dev.runnel.api.common.typeutils.base.CharSerializer;
import dev.runnel.api.common.typeutils.base.DoubleSerializer;
import dev.runnel.api.common.typeutils.base.FloatSerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.ShortSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * Reads, writes and copies one field of a POJO, through method handles resolved once from the
 * {@link Field}: no reflection per record. A field of a primitive type whose serializer is Runnel's own
 * for that type gets a codec that moves the bare value, without boxing and without a null marker (it
 * cannot be null); every other field is written as a presence byte (1, or 0 for null) followed by the
 * value, with the field's serializer.
 *
 * <p>There is one small subclass per primitive type because a method handle is invoked with its exact
 * signature: a shared codec would have to box every {@code long}.
 *
 * <p>Immutable and thread-safe; owned by one {@link PojoSerializer}.
 */
abstract class PojoFieldCodec {

    /** {@code Class.field}, for error messages. */
    final String name;

    PojoFieldCodec(String name) {
        this.name = name;
    }

    abstract void write(Object pojo, DataOutputView target) throws IOException;

    /** Reads the field's value into {@code pojo}; {@code reuse} lets a mutable field value be refilled. */
    abstract void read(Object pojo, DataInputView source, boolean reuse) throws IOException;

    /** Sets the field of {@code to} to a copy of that of {@code from}; {@code reuse} as for {@link #read}. */
    abstract void copy(Object from, Object to, boolean reuse);

    /** The codec of {@code field}, values serialized by {@code serializer}. */
    @SuppressWarnings("unchecked")
    static PojoFieldCodec of(Field field, TypeSerializer<?> serializer) {
        String name = field.getDeclaringClass().getSimpleName() + "." + field.getName();
        Class<?> type = field.getType();
        MethodHandle getter;
        MethodHandle setter;
        try {
            field.setAccessible(true);
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            getter = lookup.unreflectGetter(field);
            setter = lookup.unreflectSetter(field);
        } catch (IllegalAccessException | RuntimeException e) {
            throw new IllegalArgumentException(String.format(
                    "cannot access POJO field %s: %s; make the class accessible to Runnel (e.g. open its package)",
                    name, e.getMessage()), e);
        }
        if (type.isPrimitive() && serializer == standardSerializer(type)) {
            MethodHandle get = getter.asType(MethodType.methodType(type, Object.class));
            MethodHandle set = setter.asType(MethodType.methodType(void.class, Object.class, type));
            return primitive(type, name, get, set);
        }
        return new Reference(name, getter.asType(MethodType.methodType(Object.class, Object.class)),
                setter.asType(MethodType.methodType(void.class, Object.class, Object.class)),
                (TypeSerializer<Object>) serializer);
    }

    private static TypeSerializer<?> standardSerializer(Class<?> primitive) {
        if (primitive == long.class) {
            return LongSerializer.INSTANCE;
        } else if (primitive == int.class) {
            return IntSerializer.INSTANCE;
        } else if (primitive == double.class) {
            return DoubleSerializer.INSTANCE;
        } else if (primitive == boolean.class) {
            return BooleanSerializer.INSTANCE;
        } else if (primitive == float.class) {
            return FloatSerializer.INSTANCE;
        } else if (primitive == short.class) {
            return ShortSerializer.INSTANCE;
        } else if (primitive == byte.class) {
            return ByteSerializer.INSTANCE;
        }
        return CharSerializer.INSTANCE;
    }

    private static PojoFieldCodec primitive(Class<?> type, String name, MethodHandle get, MethodHandle set) {
        if (type == long.class) {
            return new LongField(name, get, set);
        } else if (type == int.class) {
            return new IntField(name, get, set);
        } else if (type == double.class) {
            return new DoubleField(name, get, set);
        } else if (type == boolean.class) {
            return new BooleanField(name, get, set);
        } else if (type == float.class) {
            return new FloatField(name, get, set);
        } else if (type == short.class) {
            return new ShortField(name, get, set);
        } else if (type == byte.class) {
            return new ByteField(name, get, set);
        }
        return new CharField(name, get, set);
    }

    /** Field handles throw only what the JVM throws; anything else would be a bug worth seeing. */
    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }

    /** A field of reference type (or a primitive with a custom serializer): presence byte, then the value. */
    private static final class Reference extends PojoFieldCodec {
        private final MethodHandle get;
        private final MethodHandle set;
        private final TypeSerializer<Object> serializer;
        private final boolean immutable;

        Reference(String name, MethodHandle get, MethodHandle set, TypeSerializer<Object> serializer) {
            super(name);
            this.get = get;
            this.set = set;
            this.serializer = serializer;
            this.immutable = serializer.isImmutableType();
        }

        private Object get(Object pojo) {
            try {
                return (Object) get.invokeExact(pojo);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private void set(Object pojo, Object value) {
            try {
                set.invokeExact(pojo, value);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void write(Object pojo, DataOutputView target) throws IOException {
            Object value = get(pojo);
            if (value == null) {
                target.writeByte(0);
            } else {
                target.writeByte(1);
                serializer.serialize(value, target);
            }
        }

        @Override
        void read(Object pojo, DataInputView source, boolean reuse) throws IOException {
            int present = source.readByte();
            if (present == 0) {
                set(pojo, null);
            } else if (present == 1) {
                Object old = reuse && !immutable ? get(pojo) : null;
                set(pojo, old == null ? serializer.deserialize(source) : serializer.deserialize(old, source));
            } else {
                throw new CorruptDataException(String.format(
                        "POJO field %s at position %s has presence byte %s, expected 0 or 1: the data is corrupt",
                        name, source.position() - 1, present));
            }
        }

        @Override
        void copy(Object from, Object to, boolean reuse) {
            Object value = get(from);
            if (value == null || immutable) {
                set(to, value);
                return;
            }
            Object old = reuse ? get(to) : null;
            set(to, old == null ? serializer.copy(value) : serializer.copy(value, old));
        }
    }

    private static final class LongField extends PojoFieldCodec {
        private final MethodHandle get;
        private final MethodHandle set;

        LongField(String name, MethodHandle get, MethodHandle set) {
            super(name);
            this.get = get;
            this.set = set;
        }

        private long get(Object pojo) {
            try {
                return (long) get.invokeExact(pojo);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private void set(Object pojo, long value) {
            try {
                set.invokeExact(pojo, value);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void write(Object pojo, DataOutputView target) throws IOException {
            target.writeLong(get(pojo));
        }

        @Override
        void read(Object pojo, DataInputView source, boolean reuse) throws IOException {
            set(pojo, source.readLong());
        }

        @Override
        void copy(Object from, Object to, boolean reuse) {
            set(to, get(from));
        }
    }

    private static final class IntField extends PojoFieldCodec {
        private final MethodHandle get;
        private final MethodHandle set;

        IntField(String name, MethodHandle get, MethodHandle set) {
            super(name);
            this.get = get;
            this.set = set;
        }

        private int get(Object pojo) {
            try {
                return (int) get.invokeExact(pojo);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private void set(Object pojo, int value) {
            try {
                set.invokeExact(pojo, value);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void write(Object pojo, DataOutputView target) throws IOException {
            target.writeInt(get(pojo));
        }

        @Override
        void read(Object pojo, DataInputView source, boolean reuse) throws IOException {
            set(pojo, source.readInt());
        }

        @Override
        void copy(Object from, Object to, boolean reuse) {
            set(to, get(from));
        }
    }

    private static final class DoubleField extends PojoFieldCodec {
        private final MethodHandle get;
        private final MethodHandle set;

        DoubleField(String name, MethodHandle get, MethodHandle set) {
            super(name);
            this.get = get;
            this.set = set;
        }

        private double get(Object pojo) {
            try {
                return (double) get.invokeExact(pojo);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private void set(Object pojo, double value) {
            try {
                set.invokeExact(pojo, value);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void write(Object pojo, DataOutputView target) throws IOException {
            target.writeDouble(get(pojo));
        }

        @Override
        void read(Object pojo, DataInputView source, boolean reuse) throws IOException {
            set(pojo, source.readDouble());
        }

        @Override
        void copy(Object from, Object to, boolean reuse) {
            set(to, get(from));
        }
    }

    private static final class FloatField extends PojoFieldCodec {
        private final MethodHandle get;
        private final MethodHandle set;

        FloatField(String name, MethodHandle get, MethodHandle set) {
            super(name);
            this.get = get;
            this.set = set;
        }

        private float get(Object pojo) {
            try {
                return (float) get.invokeExact(pojo);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private void set(Object pojo, float value) {
            try {
                set.invokeExact(pojo, value);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void write(Object pojo, DataOutputView target) throws IOException {
            target.writeFloat(get(pojo));
        }

        @Override
        void read(Object pojo, DataInputView source, boolean reuse) throws IOException {
            set(pojo, source.readFloat());
        }

        @Override
        void copy(Object from, Object to, boolean reuse) {
            set(to, get(from));
        }
    }

    private static final class BooleanField extends PojoFieldCodec {
        private final MethodHandle get;
        private final MethodHandle set;

        BooleanField(String name, MethodHandle get, MethodHandle set) {
            super(name);
            this.get = get;
            this.set = set;
        }

        private boolean get(Object pojo) {
            try {
                return (boolean) get.invokeExact(pojo);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private void set(Object pojo, boolean value) {
            try {
                set.invokeExact(pojo, value);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void write(Object pojo, DataOutputView target) throws IOException {
            target.writeByte(get(pojo) ? 1 : 0);
        }

        @Override
        void read(Object pojo, DataInputView source, boolean reuse) throws IOException {
            int b = source.readByte();
            if (b != 0 && b != 1) {
                throw new CorruptDataException(String.format(
                        "boolean POJO field %s at position %s is the byte %s, expected 0 or 1: the data is corrupt",
                        name, source.position() - 1, b));
            }
            set(pojo, b == 1);
        }

        @Override
        void copy(Object from, Object to, boolean reuse) {
            set(to, get(from));
        }
    }

    private static final class ShortField extends PojoFieldCodec {
        private final MethodHandle get;
        private final MethodHandle set;

        ShortField(String name, MethodHandle get, MethodHandle set) {
            super(name);
            this.get = get;
            this.set = set;
        }

        private short get(Object pojo) {
            try {
                return (short) get.invokeExact(pojo);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private void set(Object pojo, short value) {
            try {
                set.invokeExact(pojo, value);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void write(Object pojo, DataOutputView target) throws IOException {
            target.writeShort(get(pojo));
        }

        @Override
        void read(Object pojo, DataInputView source, boolean reuse) throws IOException {
            set(pojo, source.readShort());
        }

        @Override
        void copy(Object from, Object to, boolean reuse) {
            set(to, get(from));
        }
    }

    private static final class ByteField extends PojoFieldCodec {
        private final MethodHandle get;
        private final MethodHandle set;

        ByteField(String name, MethodHandle get, MethodHandle set) {
            super(name);
            this.get = get;
            this.set = set;
        }

        private byte get(Object pojo) {
            try {
                return (byte) get.invokeExact(pojo);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private void set(Object pojo, byte value) {
            try {
                set.invokeExact(pojo, value);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void write(Object pojo, DataOutputView target) throws IOException {
            target.writeByte(get(pojo));
        }

        @Override
        void read(Object pojo, DataInputView source, boolean reuse) throws IOException {
            set(pojo, source.readByte());
        }

        @Override
        void copy(Object from, Object to, boolean reuse) {
            set(to, get(from));
        }
    }

    private static final class CharField extends PojoFieldCodec {
        private final MethodHandle get;
        private final MethodHandle set;

        CharField(String name, MethodHandle get, MethodHandle set) {
            super(name);
            this.get = get;
            this.set = set;
        }

        private char get(Object pojo) {
            try {
                return (char) get.invokeExact(pojo);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        private void set(Object pojo, char value) {
            try {
                set.invokeExact(pojo, value);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }

        @Override
        void write(Object pojo, DataOutputView target) throws IOException {
            target.writeChar(get(pojo));
        }

        @Override
        void read(Object pojo, DataInputView source, boolean reuse) throws IOException {
            set(pojo, source.readChar());
        }

        @Override
        void copy(Object from, Object to, boolean reuse) {
            set(to, get(from));
        }
    }
}
