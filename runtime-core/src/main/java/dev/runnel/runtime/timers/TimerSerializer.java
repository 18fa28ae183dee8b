package dev.runnel.runtime.timers;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;
import java.util.Objects;

/**
 * Serializes timers so that byte order equals time order: the timestamp first, big-endian with the
 * sign bit flipped (so negative times sort before positive ones), then key, then namespace. RocksDB
 * keeps timers sorted by these bytes.
 */
public final class TimerSerializer<K, N> extends TypeSerializer<TimerHeapInternalTimer<K, N>> {

    private static final long serialVersionUID = 1L;

    private final TypeSerializer<K> keySerializer;
    private final TypeSerializer<N> namespaceSerializer;

    public TimerSerializer(TypeSerializer<K> keySerializer, TypeSerializer<N> namespaceSerializer) {
        this.keySerializer = Objects.requireNonNull(keySerializer, "keySerializer");
        this.namespaceSerializer = Objects.requireNonNull(namespaceSerializer, "namespaceSerializer");
    }

    public TypeSerializer<K> getKeySerializer() {
        return keySerializer;
    }

    public TypeSerializer<N> getNamespaceSerializer() {
        return namespaceSerializer;
    }

    /** The timestamp in the form whose unsigned big-endian bytes sort like the signed value. */
    public static long toOrderedBits(long timestamp) {
        return timestamp ^ Long.MIN_VALUE;
    }

    public static long fromOrderedBits(long bits) {
        return bits ^ Long.MIN_VALUE;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public TimerHeapInternalTimer<K, N> createInstance() {
        throw new UnsupportedOperationException("timers have no empty instance");
    }

    @Override
    public TimerHeapInternalTimer<K, N> copy(TimerHeapInternalTimer<K, N> from) {
        return new TimerHeapInternalTimer<>(from.getTimestamp(),
                keySerializer.copy(from.getKey()), namespaceSerializer.copy(from.getNamespace()));
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(TimerHeapInternalTimer<K, N> timer, DataOutputView target) throws IOException {
        target.writeLong(toOrderedBits(timer.getTimestamp()));
        keySerializer.serialize(timer.getKey(), target);
        namespaceSerializer.serialize(timer.getNamespace(), target);
    }

    @Override
    public TimerHeapInternalTimer<K, N> deserialize(DataInputView source) throws IOException {
        long timestamp = fromOrderedBits(source.readLong());
        K key = keySerializer.deserialize(source);
        N namespace = namespaceSerializer.deserialize(source);
        return new TimerHeapInternalTimer<>(timestamp, key, namespace);
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof TimerSerializer<?, ?> other
                && keySerializer.equals(other.keySerializer)
                && namespaceSerializer.equals(other.namespaceSerializer);
    }

    @Override
    public int hashCode() {
        return 31 * keySerializer.hashCode() + namespaceSerializer.hashCode();
    }
}
