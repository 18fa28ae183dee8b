package dev.runnel.api.common.state;

import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import java.util.Objects;

/** Describes a {@link ReducingState}: its reduce function and value type. */
public class ReducingStateDescriptor<T> extends StateDescriptor<ReducingState<T>, T> {

    private static final long serialVersionUID = 1L;

    private final ReduceFunction<T> reduceFunction;

    public ReducingStateDescriptor(String name, ReduceFunction<T> reduceFunction, Class<T> typeClass) {
        super(name, typeClass);
        this.reduceFunction = Objects.requireNonNull(reduceFunction, "reduceFunction");
    }

    public ReducingStateDescriptor(String name, ReduceFunction<T> reduceFunction, TypeInformation<T> typeInfo) {
        super(name, typeInfo, null);
        this.reduceFunction = Objects.requireNonNull(reduceFunction, "reduceFunction");
    }

    public ReducingStateDescriptor(String name, ReduceFunction<T> reduceFunction, TypeSerializer<T> typeSerializer) {
        super(name, null, typeSerializer);
        this.reduceFunction = Objects.requireNonNull(reduceFunction, "reduceFunction");
    }

    public ReduceFunction<T> getReduceFunction() {
        return reduceFunction;
    }

    @Override
    public Type getType() {
        return Type.REDUCING;
    }
}
