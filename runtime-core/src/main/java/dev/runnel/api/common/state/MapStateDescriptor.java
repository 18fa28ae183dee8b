package dev.runnel.api.common.state;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.MapSerializer;
import java.util.Map;
import java.util.Objects;

/** Describes a {@link MapState} by its key and value types. */
public class MapStateDescriptor<UK, UV> extends StateDescriptor<MapState<UK, UV>, Map<UK, UV>> {

    private static final long serialVersionUID = 1L;

    private TypeSerializer<UK> keySerializer;
    private TypeSerializer<UV> valueSerializer;

    public MapStateDescriptor(String name, Class<UK> keyClass, Class<UV> valueClass) {
        this(name, TypeInformation.of(Objects.requireNonNull(keyClass, "keyClass")),
                TypeInformation.of(Objects.requireNonNull(valueClass, "valueClass")));
    }

    public MapStateDescriptor(String name, TypeInformation<UK> keyType, TypeInformation<UV> valueType) {
        super(name, Types.MAP(keyType, valueType), null);
    }

    public MapStateDescriptor(String name, TypeSerializer<UK> keySerializer, TypeSerializer<UV> valueSerializer) {
        super(name, null, new MapSerializer<>(keySerializer, valueSerializer));
        this.keySerializer = keySerializer;
        this.valueSerializer = valueSerializer;
    }

    @Override
    public void initializeSerializerUnlessSet(SerializerConfig config) {
        super.initializeSerializerUnlessSet(config);
        if (keySerializer == null) {
            MapSerializer<UK, UV> map = (MapSerializer<UK, UV>) getSerializer();
            keySerializer = map.getKeySerializer();
            valueSerializer = map.getValueSerializer();
        }
    }

    public TypeSerializer<UK> getKeySerializer() {
        if (keySerializer == null) {
            getSerializer();
        }
        return keySerializer;
    }

    public TypeSerializer<UV> getValueSerializer() {
        if (valueSerializer == null) {
            getSerializer();
        }
        return valueSerializer;
    }

    @Override
    public Type getType() {
        return Type.MAP;
    }
}
