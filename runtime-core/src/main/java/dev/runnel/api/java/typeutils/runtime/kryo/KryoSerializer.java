package dev.runnel.api.java.typeutils.runtime.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.io.Output;
import com.esotericsoftware.kryo.util.DefaultInstantiatorStrategy;
import com.esotericsoftware.kryo.util.Pool;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.typeutils.runtime.kryo.KryoGuards.BoundedInput;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.io.ObjectStreamException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import org.objenesis.strategy.StdInstantiatorStrategy;

/**
 * The fallback serializer for types without a dedicated one ({@code GenericTypeInfo}): Kryo 5, with
 * the classes registered in a {@link SerializerConfig}.
 *
 * <h2>Security and determinism</h2>
 * Registration is required unless the config turns it off: Kryo then refuses to read or write an
 * unregistered class, and this serializer reports that with a message naming the class and the
 * {@code env.getConfig().registerKryoType(...)} call that fixes it. Classes are registered in the
 * config's order, so processes with the same config assign the same ids. Classes without a no-arg
 * constructor are instantiated through Objenesis.
 *
 * <h2>Format</h2>
 * A variable-length byte count, then Kryo's {@code writeClassAndObject} bytes. The count is checked
 * against the bytes left before Kryo runs, and Kryo sees only those bytes; see {@link KryoGuards} for
 * the counts inside them. Any failure to read, including bytes written under different registrations,
 * becomes a {@link CorruptDataException} naming the position. Kryo references are on, so shared and
 * cyclic object graphs round-trip.
 *
 * <h2>Threads</h2>
 * Kryo instances are not thread-safe; each call borrows one from a {@link Pool}, with its buffers,
 * and returns it (a Kryo that failed mid-call is dropped rather than reused). The serializer is
 * therefore thread-safe. Accepts null values.
 *
 * @param <T> the type of value; subclasses of it are written with their own class id
 */
public final class KryoSerializer<T> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    private static final int INITIAL_BUFFER_BYTES = 256;
    /** Buffers that grew beyond this for one large value are not kept in the pool. */
    private static final int MAX_RETAINED_BUFFER_BYTES = 1 << 20;
    private static final byte[] EMPTY = new byte[0];

    private final Class<T> type;
    private final ArrayList<Class<?>> registeredTypes;
    private final boolean registrationRequired;

    private final transient String lengthDescription;
    private final transient Pool<Context> pool;

    /** A serializer for {@code type} with the registrations of {@code config}, copied now. */
    public KryoSerializer(Class<T> type, SerializerConfig config) {
        this(type, new ArrayList<>(Preconditions.checkNotNull(config, "the serializer config must not be null")
                .getRegisteredKryoTypes()), config.isKryoRegistrationRequired());
    }

    private KryoSerializer(Class<T> type, ArrayList<Class<?>> registeredTypes, boolean registrationRequired) {
        this.type = Preconditions.checkNotNull(type, "the type must not be null");
        this.registeredTypes = registeredTypes;
        this.registrationRequired = registrationRequired;
        this.lengthDescription = "Kryo-serialized " + ClassNames.sourceName(type);
        int capacity = Math.max(8, 2 * Runtime.getRuntime().availableProcessors());
        this.pool = new Pool<>(true, false, capacity) {
            @Override
            protected Context create() {
                return new Context(newKryo());
            }
        };
    }

    /** Rebuilds the transient pool after Java deserialization. */
    private Object readResolve() throws ObjectStreamException {
        return new KryoSerializer<>(type, registeredTypes, registrationRequired);
    }

    private Kryo newKryo() {
        Kryo kryo = new RegistrationAwareKryo();
        kryo.setRegistrationRequired(registrationRequired);
        kryo.setReferences(true);
        kryo.setInstantiatorStrategy(new DefaultInstantiatorStrategy(new StdInstantiatorStrategy()));
        if (type.getClassLoader() != null) {
            kryo.setClassLoader(type.getClassLoader());
        }
        KryoGuards.install(kryo);
        for (Class<?> c : registeredTypes) {
            kryo.register(c);
        }
        return kryo;
    }

    /** The class this serializer was created for. */
    public Class<T> getType() {
        return type;
    }

    /**
     * Fails if Kryo would need classes that are not registered, as far as the declared field types of
     * the type tell (see the class Javadoc of {@code KryoRegistrationCheck}); does nothing when
     * registration is not required. Called when the job is built, so that a missing registration
     * fails there rather than at the first record.
     *
     * @throws InvalidTypesException listing each missing class with its field path and the call that
     *     registers it
     */
    public void checkRegistrations() {
        if (!registrationRequired) {
            return;
        }
        Context context = pool.obtain();
        List<KryoRegistrationCheck.Missing> missing;
        try {
            missing = KryoRegistrationCheck.findUnregistered(type,
                    c -> context.kryo.getClassResolver().getRegistration(c) != null);
        } finally {
            pool.free(context);
        }
        if (!missing.isEmpty()) {
            throw new InvalidTypesException(String.format(
                    "%s is serialized with Kryo, which requires every class it writes to be registered, but these"
                            + " are not: %s. Register them before building the job:%n%s%n"
                            + "Registration is required because Kryo would otherwise instantiate any class named in"
                            + " the bytes it reads. This check follows declared field types; also register the"
                            + " runtime classes of fields declared as interfaces or abstract classes.",
                    ClassNames.sourceName(type),
                    missing.stream().map(Object::toString).collect(Collectors.joining(", ")),
                    missing.stream().map(m -> "  " + registerCall(m.type()) + ";").collect(Collectors.joining("\n"))));
        }
    }

    static String registerCall(Class<?> c) {
        return "env.getConfig().registerKryoType(" + ClassNames.sourceName(c) + ".class)";
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    /** A new instance via Kryo's instantiator, or null for abstract types or if that fails. */
    @Override
    public T createInstance() {
        if (type.isInterface() || java.lang.reflect.Modifier.isAbstract(type.getModifiers())) {
            return null;
        }
        Context context = pool.obtain();
        try {
            return context.kryo.newInstance(type);
        } catch (RuntimeException e) {
            return null;
        } finally {
            pool.free(context);
        }
    }

    @Override
    public T copy(T from) {
        if (from == null) {
            return null;
        }
        Context context = pool.obtain();
        boolean healthy = false;
        try {
            T copy = context.kryo.copy(from);
            healthy = true;
            return copy;
        } catch (RuntimeException e) {
            rethrowIfUnregistered(context, from, e);
            // Some Kryo serializers cannot copy; a round trip through bytes always can.
            return copyThroughBytes(from);
        } finally {
            context.kryo.reset();
            release(context, healthy);
        }
    }

    private T copyThroughBytes(T from) {
        try {
            DataOutputSerializer out = new DataOutputSerializer(INITIAL_BUFFER_BYTES);
            serialize(from, out);
            DataInputDeserializer in = new DataInputDeserializer();
            in.setBuffer(out.getSharedBuffer(), 0, out.length());
            return deserialize(in);
        } catch (IOException e) {
            throw new IllegalStateException(String.format("Kryo could not copy a %s: %s", ClassNames.sourceName(from.getClass()),
                    e.getMessage()), e);
        }
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public boolean acceptsNull() {
        return true;
    }

    @Override
    public void serialize(T record, DataOutputView target) throws IOException {
        Context context = pool.obtain();
        boolean healthy = false;
        try {
            Output output = context.output;
            output.reset();
            try {
                context.kryo.writeClassAndObject(output, record);
            } catch (RuntimeException e) {
                rethrowIfUnregistered(context, record, e);
                throw new IOException(String.format("Kryo could not serialize a %s: %s",
                        ClassNames.sourceName(record.getClass()), e.getMessage()), e);
            }
            healthy = true;
            int length = output.position();
            target.writeVarInt(length);
            target.write(output.getBuffer(), 0, length);
        } finally {
            release(context, healthy);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public T deserialize(DataInputView source) throws IOException {
        int start = source.position();
        int length = source.readLength(lengthDescription, 1);
        Context context = pool.obtain();
        boolean healthy = false;
        BoundedInput input = context.input;
        try {
            DataInputDeserializer inPlace = source instanceof DataInputDeserializer d ? d : null;
            byte[] bytes;
            int offset;
            if (inPlace != null) {
                bytes = inPlace.array();
                offset = inPlace.arrayPosition();
            } else {
                bytes = context.scratch(length);
                offset = 0;
                source.readFully(bytes, 0, length);
            }
            input.setBuffer(bytes, offset, length);
            Object value;
            try {
                value = context.kryo.readClassAndObject(input);
            } catch (RuntimeException e) {
                throw corrupt(start, length, rootMessage(e), e);
            }
            if (input.position() != offset + length) {
                throw corrupt(start, length, String.format("Kryo read %s of the %s bytes", input.position() - offset, length), null);
            }
            if (value != null && !type.isInstance(value)) {
                throw corrupt(start, length, String.format("the bytes hold a %s, not a %s",
                        ClassNames.sourceName(value.getClass()), ClassNames.sourceName(type)), null);
            }
            if (inPlace != null) {
                inPlace.advance(length);
            }
            healthy = true;
            return (T) value;
        } finally {
            input.setBuffer(EMPTY); // do not keep the caller's array reachable from the pool
            release(context, healthy);
        }
    }

    private CorruptDataException corrupt(int start, int length, String problem, Throwable cause) {
        return new CorruptDataException(String.format(
                "%s at position %s (%s bytes) cannot be read: %s. The bytes are corrupt, or were written with"
                        + " different Kryo registrations (every process must register the same classes in the same"
                        + " order)",
                lengthDescription, start, length, problem), cause);
    }

    private static String rootMessage(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root == t ? String.valueOf(t.getMessage()) : root + " (" + t.getMessage() + ")";
        return t.getClass().getSimpleName() + ": " + message;
    }

    /** Translates Kryo's complaint about an unregistered class into ours, which says how to fix it. */
    private void rethrowIfUnregistered(Context context, Object value, RuntimeException e) {
        Class<?> unregistered = ((RegistrationAwareKryo) context.kryo).takeUnregistered();
        if (unregistered == null) {
            return;
        }
        String trace = ClassNames.inParentheses(kryoTrace(e), value.getClass());
        throw new InvalidTypesException(String.format(
                "class %s is not registered with Kryo, which Runnel requires because Kryo would otherwise"
                        + " instantiate any class named in the bytes it reads. Register it before building the job:"
                        + " %s (needed to serialize a %s%s)",
                ClassNames.sourceName(unregistered), registerCall(unregistered), ClassNames.sourceName(value.getClass()),
                trace.isEmpty() ? "" : ", at " + trace), e);
    }

    /** Kryo's field trace ("items (com.example.Order)") from its exception message, if any. */
    private static String kryoTrace(Throwable e) {
        String message = String.valueOf(e.getMessage());
        int at = message.indexOf("Serialization trace:");
        if (at < 0) {
            return "";
        }
        return message.substring(at + "Serialization trace:".length()).trim().replace('\n', ' ').replace("\r", "");
    }

    private void release(Context context, boolean healthy) {
        if (healthy) {
            context.trim();
            pool.free(context);
        }
        // A Kryo that failed mid-call may hold half-written state (depth, references): drop it.
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof KryoSerializer<?> other
                && type == other.type
                && registrationRequired == other.registrationRequired
                && registeredTypes.equals(other.registeredTypes);
    }

    @Override
    public int hashCode() {
        return 31 * type.getName().hashCode() + registeredTypes.stream().map(Class::getName).toList().hashCode();
    }

    @Override
    public String toString() {
        return "KryoSerializer<" + ClassNames.sourceName(type) + ">";
    }

    /** One pooled Kryo with the buffers used alongside it; owned by one thread between obtain and free. */
    private static final class Context {
        final Kryo kryo;
        Output output = new Output(INITIAL_BUFFER_BYTES, -1);
        final BoundedInput input = new BoundedInput();
        byte[] scratch = EMPTY;

        Context(Kryo kryo) {
            this.kryo = kryo;
        }

        byte[] scratch(int length) {
            if (scratch.length < length) {
                scratch = new byte[Math.max(length, Math.min(2 * scratch.length, MAX_RETAINED_BUFFER_BYTES))];
            }
            return scratch;
        }

        void trim() {
            if (output.getBuffer().length > MAX_RETAINED_BUFFER_BYTES) {
                output = new Output(INITIAL_BUFFER_BYTES, -1);
            }
            if (scratch.length > MAX_RETAINED_BUFFER_BYTES) {
                scratch = EMPTY;
            }
        }
    }

    /** Remembers the class Kryo last refused as unregistered, so the error can name it exactly. */
    private static final class RegistrationAwareKryo extends Kryo {
        private Class<?> unregistered;

        @Override
        @SuppressWarnings("rawtypes")
        protected String unregisteredClassMessage(Class type) {
            unregistered = type;
            return super.unregisteredClassMessage(type);
        }

        Class<?> takeUnregistered() {
            Class<?> c = unregistered;
            unregistered = null;
            return c;
        }
    }
}
