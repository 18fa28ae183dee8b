package dev.runnel.api.common.typeutils.base;

import dev.runnel.api.common.typeutils.TypeSerializer;

/**
 * Base of stateless serializers that exist once per JVM ({@code INSTANCE}). All instances of one
 * subclass are equal, so a serializer that went through Java serialization (shipped with a job graph)
 * still equals the local singleton; subclasses also resolve back to {@code INSTANCE} on read.
 *
 * <p>Thread-safe: subclasses hold no state.
 *
 * @param <T> the type of value
 */
public abstract class TypeSerializerSingleton<T> extends TypeSerializer<T> {

    private static final long serialVersionUID = 1L;

    /**
     * The exception for a null value handed to a serializer that cannot represent null. Built only on
     * the failure path, so the message costs nothing on the hot path.
     */
    protected final NullPointerException nullValue() {
        return new NullPointerException(String.format(
                "%s cannot serialize null: filter out null values before this point, or hold values that may be"
                        + " absent where null is representable (a record component or a Map value)",
                getClass().getSimpleName()));
    }

    @Override
    public final boolean equals(Object obj) {
        return obj != null && obj.getClass() == getClass();
    }

    @Override
    public final int hashCode() {
        // The class name, not Class.hashCode(), so the value is the same in every JVM.
        return getClass().getName().hashCode();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName();
    }
}
