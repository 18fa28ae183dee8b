package dev.runnel.api.common.state;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;

/** Describes a {@link ValueState}. */
public class ValueStateDescriptor<T> extends StateDescriptor<ValueState<T>, T> {

    private static final long serialVersionUID = 1L;

    public ValueStateDescriptor(String name, Class<T> typeClass) {
        super(name, typeClass);
    }

    public ValueStateDescriptor(String name, TypeInformation<T> typeInfo) {
        super(name, typeInfo, null);
    }

    public ValueStateDescriptor(String name, TypeSerializer<T> typeSerializer) {
        super(name, null, typeSerializer);
    }

    @Override
    public Type getType() {
        return Type.VALUE;
    }
}
