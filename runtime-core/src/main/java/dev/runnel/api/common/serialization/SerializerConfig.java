package dev.runnel.api.common.serialization;

import dev.runnel.util.Preconditions;
import java.io.Serializable;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.Objects;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a job serializes the types that have no dedicated serializer: which classes Kryo may read and
 * write, and whether the Kryo fallback is allowed at all. Reached through
 * {@code env.getConfig().getSerializerConfig()}; the common settings are also on
 * {@link dev.runnel.api.common.ExecutionConfig}.
 *
 * <p><b>Registration</b> is required by default: Kryo then writes a small id instead of a class name,
 * and refuses to read any class not registered here. Reading class names from the wire would let
 * crafted bytes instantiate arbitrary classes, a remote-code-execution vector. Ids follow the order
 * of {@link #registerKryoType(Class)} calls, so every process of a job, given the same configuration,
 * agrees on them; registering in a different order makes earlier data unreadable.
 *
 * <p>A plain mutable object, configured on one thread before the job is built, then shipped with it
 * (it is {@link Serializable}); not thread-safe.
 */
public final class SerializerConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(SerializerConfig.class);

    private final LinkedHashSet<Class<?>> registeredKryoTypes = new LinkedHashSet<>();
    private boolean kryoRegistrationRequired = true;
    private boolean genericTypesDisabled;

    /**
     * Lets Kryo read and write {@code type}, under the next free id. Registering a class twice keeps
     * its first position.
     */
    public void registerKryoType(Class<?> type) {
        Preconditions.checkNotNull(type, "cannot register a null class with Kryo");
        registeredKryoTypes.add(type);
    }

    /** The registered classes, in registration order (which fixes their Kryo ids). Unmodifiable view. */
    public Set<Class<?>> getRegisteredKryoTypes() {
        return Collections.unmodifiableSet(registeredKryoTypes);
    }

    /**
     * Whether Kryo may only handle registered classes (default true). Turning it off lets Kryo read any
     * class named in the data: do that only when every byte it reads comes from a trusted source.
     */
    public void setKryoRegistrationRequired(boolean required) {
        if (!required && kryoRegistrationRequired) {
            LOG.warn("Kryo registration is turned off: Kryo will instantiate any class named in the bytes it"
                    + " reads, so crafted input (state, savepoints, network data) can execute code. Turn it off"
                    + " only if all input is trusted; otherwise register classes with registerKryoType(...).");
        }
        kryoRegistrationRequired = required;
    }

    /** Whether Kryo may only handle registered classes. */
    public boolean isKryoRegistrationRequired() {
        return kryoRegistrationRequired;
    }

    /**
     * Forbids the Kryo fallback: resolving the serializer of any type that would need Kryo then fails
     * when the job is built, naming the type. Use it to make sure every type has a fast serializer.
     */
    public void disableGenericTypes() {
        genericTypesDisabled = true;
    }

    /** Allows the Kryo fallback again (the default). */
    public void enableGenericTypes() {
        genericTypesDisabled = false;
    }

    /** Whether the Kryo fallback is forbidden. */
    public boolean hasGenericTypesDisabled() {
        return genericTypesDisabled;
    }

    @Override
    public boolean equals(Object obj) {
        // Order matters: it decides the Kryo ids.
        return obj instanceof SerializerConfig other
                && kryoRegistrationRequired == other.kryoRegistrationRequired
                && genericTypesDisabled == other.genericTypesDisabled
                && registeredKryoTypes.stream().toList().equals(other.registeredKryoTypes.stream().toList());
    }

    @Override
    public int hashCode() {
        return Objects.hash(registeredKryoTypes.stream().map(Class::getName).toList(), kryoRegistrationRequired,
                genericTypesDisabled);
    }

    @Override
    public String toString() {
        return "SerializerConfig{registeredKryoTypes=" + registeredKryoTypes.stream().map(Class::getName).toList()
                + ", kryoRegistrationRequired=" + kryoRegistrationRequired
                + ", genericTypesDisabled=" + genericTypesDisabled + "}";
    }
}
