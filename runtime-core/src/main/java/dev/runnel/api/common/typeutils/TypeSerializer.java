package dev.runnel.api.common.typeutils;

import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.io.Serializable;

/**
 * Turns values of one type into bytes and back, and copies them. Used wherever a value leaves the
 * heap of its task: keyed state in RocksDB, snapshots, network exchange, and defensive copies between
 * chained operators when object reuse is off.
 *
 * <p>Contract: serializers are thread-safe (stateless, or pooling what they need per thread, as the
 * Kryo serializer does), so one instance may be shared by all tasks. {@code serialize} must never be
 * given null unless {@link #acceptsNull()} is true. {@code deserialize} on truncated or corrupt input
 * throws an {@link IOException} naming the position (see
 * {@link dev.runnel.core.memory.CorruptDataException}); it never hangs and never allocates for a bogus
 * length.
 *
 * <p>Every serialized value occupies at least one byte. Collection serializers rely on this to reject
 * a corrupt element count before allocating: {@code n} elements need at least {@code n} bytes.
 *
 * @param <T> the type of value
 */
public abstract class TypeSerializer<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** True if values never change after construction, so copying may return the same instance. */
    public abstract boolean isImmutableType();

    /**
     * A fresh value, for callers that deserialize or copy into a reused instance. May be null for
     * types without a blank instance (e.g. a record whose constructor rejects default values, or an
     * abstract type); the reuse variants below accept a null {@code reuse}.
     */
    public abstract T createInstance();

    /** A deep copy of {@code from}; may return {@code from} itself for immutable types. */
    public abstract T copy(T from);

    /** A deep copy of {@code from}, reusing {@code reuse} (which may be null) where the type allows. */
    public T copy(T from, T reuse) {
        return copy(from);
    }

    /** The fixed serialized length in bytes, or -1 when it varies. */
    public abstract int getLength();

    /** Whether {@code null} is a value this serializer can write and read back. */
    public boolean acceptsNull() {
        return false;
    }

    /** Writes {@code record} to {@code target}. */
    public abstract void serialize(T record, DataOutputView target) throws IOException;

    /** Reads a value from {@code source}. */
    public abstract T deserialize(DataInputView source) throws IOException;

    /**
     * Reads a value from {@code source}, reusing {@code reuse} where the type allows. {@code reuse}
     * comes from {@link #createInstance()} or an earlier call and may be null; the result may or may
     * not be it.
     */
    public T deserialize(T reuse, DataInputView source) throws IOException {
        return deserialize(source);
    }

    @Override
    public abstract boolean equals(Object obj);

    @Override
    public abstract int hashCode();
}
