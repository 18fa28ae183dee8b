package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.MapSerializer;
import dev.runnel.util.Preconditions;
import java.util.Map;

/**
 * Type information of {@code java.util.Map} with its key and value types, serialized by
 * {@link MapSerializer} (read back as {@code HashMap}; values may be null). Not a key type, as in
 * Flink. Immutable.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public final class MapTypeInfo<K, V> extends TypeInformation<Map<K, V>> {

    private static final long serialVersionUID = 1L;

    private final TypeInformation<K> keyTypeInfo;
    private final TypeInformation<V> valueTypeInfo;

    public MapTypeInfo(TypeInformation<K> keyTypeInfo, TypeInformation<V> valueTypeInfo) {
        this.keyTypeInfo = Preconditions.checkNotNull(keyTypeInfo, "the key type must not be null");
        this.valueTypeInfo = Preconditions.checkNotNull(valueTypeInfo, "the value type must not be null");
    }

    /** Maps of non-generic key and value classes. */
    public MapTypeInfo(Class<K> keyClass, Class<V> valueClass) {
        this(TypeInformation.of(keyClass), TypeInformation.of(valueClass));
    }

    /** The type of the keys. */
    public TypeInformation<K> getKeyTypeInfo() {
        return keyTypeInfo;
    }

    /** The type of the values. */
    public TypeInformation<V> getValueTypeInfo() {
        return valueTypeInfo;
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
    @SuppressWarnings({"unchecked", "rawtypes"})
    public Class<Map<K, V>> getTypeClass() {
        return (Class) Map.class;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<Map<K, V>> createSerializer(SerializerConfig config) {
        return new MapSerializer<>(keyTypeInfo.createSerializer(config), valueTypeInfo.createSerializer(config));
    }

    @Override
    public String toString() {
        return "Map<" + keyTypeInfo + ", " + valueTypeInfo + ">";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof MapTypeInfo<?, ?> other && keyTypeInfo.equals(other.keyTypeInfo)
                && valueTypeInfo.equals(other.valueTypeInfo);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * MapTypeInfo.class.getName().hashCode() + keyTypeInfo.hashCode()) + valueTypeInfo.hashCode();
    }
}
