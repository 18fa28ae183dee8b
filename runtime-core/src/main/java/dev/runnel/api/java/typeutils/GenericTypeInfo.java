package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.typeutils.runtime.kryo.KryoSerializer;
import dev.runnel.util.Preconditions;
import java.lang.reflect.Modifier;

/**
 * Type information of a class Runnel has no dedicated serializer for: it is serialized with Kryo
 * ({@link KryoSerializer}), slower than tuples, records and basic types.
 *
 * <p>{@link #createSerializer(SerializerConfig)} resolves everything up front, when the job is
 * built: it fails if generic types are disabled, and, when Kryo registration is required, if the
 * class or the classes its fields declare are not registered (naming each field path). For a class
 * that only just misses being a POJO, the message also says which POJO rule it breaks.
 *
 * <p>A generic type is a key type only if its class overrides both {@code hashCode} and
 * {@code equals} and is not an enum, array, interface or abstract class (whose hash codes are, or
 * may be, identity-based and differ between processes). Immutable.
 *
 * @param <T> the described type
 */
public final class GenericTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> typeClass;

    public GenericTypeInfo(Class<T> typeClass) {
        this.typeClass = Preconditions.checkNotNull(typeClass, "the class must not be null");
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return typeClass;
    }

    @Override
    public boolean isKeyType() {
        if (typeClass.isEnum() || typeClass.isArray() || typeClass.isInterface()
                || Modifier.isAbstract(typeClass.getModifiers())) {
            return false;
        }
        try {
            return typeClass.getMethod("hashCode").getDeclaringClass() != Object.class
                    && typeClass.getMethod("equals", Object.class).getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            return false;
        }
    }

    /**
     * A {@link KryoSerializer} with {@code config}'s registrations.
     *
     * @throws InvalidTypesException if generic types are disabled, or registration is required and
     *     Kryo would need classes that are not registered
     */
    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        if (config.hasGenericTypesDisabled()) {
            throw new InvalidTypesException(String.format(
                    "generic types are disabled (env.getConfig().disableGenericTypes()), but %s has no dedicated"
                            + " serializer and would be serialized with Kryo. Use a POJO, a tuple, a record, a basic"
                            + " type, or a List or Map of those, or enable generic types.%s",
                    typeClass.getName(), notAPojo()));
        }
        KryoSerializer<T> serializer = new KryoSerializer<>(typeClass, config);
        try {
            serializer.checkRegistrations();
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException(e.getMessage() + notAPojo(), e);
        }
        return serializer;
    }

    /**
     * Why the class is not a POJO, as the other way out of a Kryo error; empty where that does not apply.
     * Names the class as Java source spells it, like the Kryo error it extends.
     */
    private String notAPojo() {
        String reason = PojoRules.whyNotPojo(typeClass);
        return reason == null ? "" : String.format(
                " Alternatively, make %s a POJO, which needs neither Kryo nor a registration: it is not one because %s.",
                typeClass.getCanonicalName() != null ? typeClass.getCanonicalName() : typeClass.getName(), reason);
    }

    @Override
    public String toString() {
        return "GenericType<" + typeClass.getName() + ">";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof GenericTypeInfo<?> other && typeClass == other.typeClass;
    }

    @Override
    public int hashCode() {
        return 31 * GenericTypeInfo.class.getName().hashCode() + typeClass.getName().hashCode();
    }
}
