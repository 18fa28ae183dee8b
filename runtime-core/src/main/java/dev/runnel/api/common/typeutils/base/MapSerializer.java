package dev.runnel.api.common.typeutils.base;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;

/**
 * Serializes a {@link Map} as a variable-length entry count followed by the entries; reads back a
 * {@link HashMap}. Used for map state and for fields of type {@code Map<K, V>}.
 *
 * <p>Each entry is the key, a presence byte (1, or 0 for a null value) and then the value if present:
 * values may be null, as in map state; keys may not (a null key fails with a message). The map itself
 * must not be null. Thread-safe if the key and value serializers are.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class MapSerializer<K, V> extends TypeSerializer<Map<K, V>> {

    private static final long serialVersionUID = 1L;

    private final TypeSerializer<K> keySerializer;
    private final TypeSerializer<V> valueSerializer;

    /** Key plus presence byte: the least an entry can take, to bound the count read back. */
    private final int minEntryBytes;

    public MapSerializer(TypeSerializer<K> keySerializer, TypeSerializer<V> valueSerializer) {
        this.keySerializer = Preconditions.checkNotNull(keySerializer, "the key serializer must not be null");
        this.valueSerializer = Preconditions.checkNotNull(valueSerializer, "the value serializer must not be null");
        this.minEntryBytes = Math.max(1, keySerializer.getLength()) + 1;
    }

    /** The serializer of the keys. */
    public TypeSerializer<K> getKeySerializer() {
        return keySerializer;
    }

    /** The serializer of the values. */
    public TypeSerializer<V> getValueSerializer() {
        return valueSerializer;
    }

    @Override
    public boolean isImmutableType() {
        return false;
    }

    @Override
    public Map<K, V> createInstance() {
        return new HashMap<>();
    }

    @Override
    public Map<K, V> copy(Map<K, V> from) {
        HashMap<K, V> copy = newHashMap(from.size());
        boolean keysImmutable = keySerializer.isImmutableType();
        boolean valuesImmutable = valueSerializer.isImmutableType();
        for (Map.Entry<K, V> entry : from.entrySet()) {
            K key = entry.getKey();
            V value = entry.getValue();
            copy.put(keysImmutable || key == null ? key : keySerializer.copy(key),
                    valuesImmutable || value == null ? value : valueSerializer.copy(value));
        }
        return copy;
    }

    @Override
    public int getLength() {
        return -1;
    }

    @Override
    public void serialize(Map<K, V> record, DataOutputView target) throws IOException {
        if (record == null) {
            throw new NullPointerException("MapSerializer cannot serialize a null map; use an empty map instead");
        }
        target.writeVarInt(record.size());
        for (Map.Entry<K, V> entry : record.entrySet()) {
            K key = entry.getKey();
            if (key == null) {
                throw new NullPointerException("a map has a null key, which MapSerializer cannot write: remove"
                        + " that entry, or use a real value for the absent key");
            }
            keySerializer.serialize(key, target);
            V value = entry.getValue();
            if (value == null) {
                target.writeByte(0);
            } else {
                target.writeByte(1);
                valueSerializer.serialize(value, target);
            }
        }
    }

    @Override
    public Map<K, V> deserialize(DataInputView source) throws IOException {
        int size = source.readLength("Map", minEntryBytes);
        HashMap<K, V> map = newHashMap(size);
        for (int i = 0; i < size; i++) {
            K key = keySerializer.deserialize(source);
            int present = source.readByte();
            if (present == 1) {
                map.put(key, valueSerializer.deserialize(source));
            } else if (present == 0) {
                map.put(key, null);
            } else {
                throw new CorruptDataException(String.format(
                        "map entry %s at position %s has value marker %s, expected 0 or 1: the data is corrupt",
                        i, source.position() - 1, present));
            }
        }
        return map;
    }

    private static <K, V> HashMap<K, V> newHashMap(int expectedSize) {
        // Sized so that expectedSize entries fit without rehashing at the default load factor.
        return new HashMap<>((int) Math.min(1 << 30, (long) expectedSize * 4 / 3 + 1));
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof MapSerializer<?, ?> other
                && keySerializer.equals(other.keySerializer)
                && valueSerializer.equals(other.valueSerializer);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * MapSerializer.class.getName().hashCode() + keySerializer.hashCode()) + valueSerializer.hashCode();
    }

    @Override
    public String toString() {
        return "MapSerializer<" + keySerializer + ", " + valueSerializer + ">";
    }
}
