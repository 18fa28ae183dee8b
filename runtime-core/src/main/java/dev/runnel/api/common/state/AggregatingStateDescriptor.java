package dev.runnel.api.common.state;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import java.util.Objects;

/**
 * Describes an {@link AggregatingState}: its aggregate function and the accumulator type, which is
 * what the state stores.
 */
public class AggregatingStateDescriptor<IN, ACC, OUT> extends StateDescriptor<AggregatingState<IN, OUT>, ACC> {

    private static final long serialVersionUID = 1L;

    private final AggregateFunction<IN, ACC, OUT> aggregateFunction;

    public AggregatingStateDescriptor(String name, AggregateFunction<IN, ACC, OUT> aggregateFunction,
            Class<ACC> accumulatorClass) {
        super(name, accumulatorClass);
        this.aggregateFunction = Objects.requireNonNull(aggregateFunction, "aggregateFunction");
    }

    public AggregatingStateDescriptor(String name, AggregateFunction<IN, ACC, OUT> aggregateFunction,
            TypeInformation<ACC> accumulatorType) {
        super(name, accumulatorType, null);
        this.aggregateFunction = Objects.requireNonNull(aggregateFunction, "aggregateFunction");
    }

    public AggregatingStateDescriptor(String name, AggregateFunction<IN, ACC, OUT> aggregateFunction,
            TypeSerializer<ACC> accumulatorSerializer) {
        super(name, null, accumulatorSerializer);
        this.aggregateFunction = Objects.requireNonNull(aggregateFunction, "aggregateFunction");
    }

    public AggregateFunction<IN, ACC, OUT> getAggregateFunction() {
        return aggregateFunction;
    }

    @Override
    public Type getType() {
        return Type.AGGREGATING;
    }
}
