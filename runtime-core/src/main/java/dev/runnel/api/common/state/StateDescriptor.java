package dev.runnel.api.common.state;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import java.io.Serializable;
import java.util.Objects;

/**
 * Names a keyed state and says how to store it: its kind, its value type (as a class, a
 * {@link TypeInformation} or a ready {@link TypeSerializer}) and optional time-to-live.
 *
 * <p>A descriptor is resolved once per operator: {@link #initializeSerializerUnlessSet} turns the type
 * into a serializer with the job's serializer configuration. Two descriptors with the same name in
 * one operator refer to the same state, so they must agree on kind and type.
 *
 * @param <S> the state interface handed to the user
 * @param <T> the type of the stored value (for list and map state, the whole collection)
 */
public abstract class StateDescriptor<S extends State, T> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The kinds of keyed state. */
    public enum Type {
        VALUE,
        LIST,
        REDUCING,
        AGGREGATING,
        MAP
    }

    private final String name;
    private TypeInformation<T> typeInfo;
    private TypeSerializer<T> serializer;
    private StateTtlConfig ttlConfig = StateTtlConfig.DISABLED;

    protected StateDescriptor(String name, TypeInformation<T> typeInfo, TypeSerializer<T> serializer) {
        this.name = requireName(name);
        if (typeInfo == null && serializer == null) {
            throw new IllegalArgumentException("State '" + name + "' needs a type: pass a Class, a TypeInformation "
                    + "(e.g. Types.LONG) or a TypeSerializer to its descriptor.");
        }
        this.typeInfo = typeInfo;
        this.serializer = serializer;
    }

    protected StateDescriptor(String name, Class<T> type) {
        this(name, TypeInformation.of(Objects.requireNonNull(type, () -> "type of state '" + name + "'")), null);
    }

    private static String requireName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("A state descriptor needs a non-blank name, got '" + name + "'");
        }
        return name;
    }

    public String getName() {
        return name;
    }

    public abstract Type getType();

    /** Expires entries {@code ttlConfig.getTtl()} after they were last written (or read). */
    public void enableTimeToLive(StateTtlConfig ttlConfig) {
        this.ttlConfig = Objects.requireNonNull(ttlConfig, "ttlConfig");
    }

    public StateTtlConfig getTtlConfig() {
        return ttlConfig;
    }

    /** The value type, when the descriptor was given one (null if built from a serializer). */
    public TypeInformation<T> getTypeInformation() {
        return typeInfo;
    }

    public boolean isSerializerInitialized() {
        return serializer != null;
    }

    /** Creates the serializer from the type, unless one was given or created already. */
    public void initializeSerializerUnlessSet(SerializerConfig config) {
        if (serializer == null) {
            serializer = typeInfo.createSerializer(config);
        }
    }

    /** The value serializer; fails if {@link #initializeSerializerUnlessSet} was not called yet. */
    public TypeSerializer<T> getSerializer() {
        if (serializer == null) {
            throw new IllegalStateException("The serializer of state '" + name + "' is not initialized yet; "
                    + "state descriptors are resolved when the state is first requested from the runtime context.");
        }
        return serializer;
    }

    @Override
    public boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && name.equals(((StateDescriptor<?, ?>) o).name);
    }

    @Override
    public int hashCode() {
        return 31 * getClass().hashCode() + name.hashCode();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{name=" + name + ", type=" + (typeInfo != null ? typeInfo : serializer) + "}";
    }
}
