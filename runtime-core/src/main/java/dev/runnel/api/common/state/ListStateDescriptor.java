package dev.runnel.api.common.state;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.ListSerializer;
import java.util.List;
import java.util.Objects;

/**
 * Describes a {@link ListState} by its element type. Stores keep elements individually where they
 * can (RocksDB appends with a merge operator), so {@link #getElementSerializer()} is what matters.
 */
public class ListStateDescriptor<T> extends StateDescriptor<ListState<T>, List<T>> {

    private static final long serialVersionUID = 1L;

    private final TypeInformation<T> elementTypeInfo;
    private TypeSerializer<T> elementSerializer;

    public ListStateDescriptor(String name, Class<T> elementClass) {
        this(name, TypeInformation.of(Objects.requireNonNull(elementClass, "elementClass")));
    }

    public ListStateDescriptor(String name, TypeInformation<T> elementTypeInfo) {
        super(name, Types.LIST(elementTypeInfo), null);
        this.elementTypeInfo = elementTypeInfo;
    }

    public ListStateDescriptor(String name, TypeSerializer<T> elementSerializer) {
        super(name, null, new ListSerializer<>(elementSerializer));
        this.elementTypeInfo = null;
        this.elementSerializer = elementSerializer;
    }

    @Override
    public void initializeSerializerUnlessSet(SerializerConfig config) {
        super.initializeSerializerUnlessSet(config);
        if (elementSerializer == null) {
            elementSerializer = ((ListSerializer<T>) getSerializer()).getElementSerializer();
        }
    }

    /** The element serializer; available after {@link #initializeSerializerUnlessSet}. */
    public TypeSerializer<T> getElementSerializer() {
        if (elementSerializer == null) {
            getSerializer(); // throws the explanatory error
        }
        return elementSerializer;
    }

    /** The element type, when given (null if built from a serializer). */
    public TypeInformation<T> getElementTypeInformation() {
        return elementTypeInfo;
    }

    @Override
    public Type getType() {
        return Type.LIST;
    }
}
