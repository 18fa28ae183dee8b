package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.runtime.partitioner.KeyGroupStreamPartitioner;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.aggregation.FieldAggregator;
import dev.runnel.streaming.api.operators.KeyedProcessOperator;
import dev.runnel.streaming.api.operators.StreamGroupedReduceOperator;
import dev.runnel.streaming.api.transformations.PartitionTransformation;
import dev.runnel.streaming.api.transformations.PhysicalTransformation;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.windows.Window;

/**
 * A stream partitioned by key ({@code keyBy}): operators applied to it are keyed, so their functions
 * get keyed state and timers for the key of each record. The key must have a stable
 * {@code hashCode()}: it decides the key group and so the subtask (exactly as in Flink).
 *
 * @param <T> the record type
 * @param <KEY> the key type
 */
public class KeyedStream<T, KEY> extends DataStream<T> {

    private final KeySelector<T, KEY> keySelector;
    private final TypeInformation<KEY> keyType;

    KeyedStream(DataStream<T> input, KeySelector<T, KEY> keySelector) {
        this(input, keySelector, keyType(input, keySelector));
    }

    KeyedStream(DataStream<T> input, KeySelector<T, KEY> keySelector, TypeInformation<KEY> keyType) {
        super(input.getExecutionEnvironment(), new PartitionTransformation<>(input.getExecutionEnvironment().nextId(),
                input.getTransformation(),
                new KeyGroupStreamPartitioner<>(keySelector, KeyGroupRangeAssignment.DEFAULT_LOWER_BOUND_MAX_PARALLELISM)));
        this.keySelector = keySelector;
        this.keyType = keyType;
        if (!keyType.isKeyType()) {
            throw new InvalidTypesException("Type " + keyType + " cannot be a key: keys need equals() and hashCode() "
                    + "based on their content (arrays, for example, do not have that).");
        }
    }

    private static <T, KEY> TypeInformation<KEY> keyType(DataStream<T> input, KeySelector<T, KEY> keySelector) {
        try {
            return TypeExtractor.getOutputType(keySelector, KeySelector.class, 1, input.typeOrNull());
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException("The key type of keyBy after '" + input.getTransformation().getName()
                    + "' could not be determined: " + e.getMessage()
                    + " Pass it explicitly: keyBy(selector, Types.STRING).", e);
        }
    }

    public KeySelector<T, KEY> getKeySelector() {
        return keySelector;
    }

    public TypeInformation<KEY> getKeyType() {
        return keyType;
    }

    @Override
    protected void configureKeyed(PhysicalTransformation<?> t) {
        t.setKeyed(keySelector, null, keyType);
    }

    /** Runs {@code function} with keyed state and timers. */
    public <R> SingleOutputStreamOperator<R> process(KeyedProcessFunction<KEY, T, R> function) {
        return transform("KeyedProcess", outputType(function, KeyedProcessFunction.class, 2, keyType, typeOrNull()),
                new KeyedProcessOperator<>(clean(function)));
    }

    public <R> SingleOutputStreamOperator<R> process(KeyedProcessFunction<KEY, T, R> function,
            TypeInformation<R> outputType) {
        return transform("KeyedProcess", outputType, new KeyedProcessOperator<>(clean(function)));
    }

    /** A rolling reduce: emits the reduced value of the key after every record. */
    public SingleOutputStreamOperator<T> reduce(ReduceFunction<T> reducer) {
        return transform("Keyed Reduce", getType(),
                new StreamGroupedReduceOperator<>(clean(reducer), getType().createSerializer(
                        environment.getConfig().getSerializerConfig())));
    }

    public SingleOutputStreamOperator<T> sum(int positionToSum) {
        return aggregate(FieldAggregator.byPosition(FieldAggregator.Kind.SUM, getType(), positionToSum), "Sum");
    }

    public SingleOutputStreamOperator<T> sum(String field) {
        return aggregate(FieldAggregator.byName(FieldAggregator.Kind.SUM, getType(), field, serializerConfig()), "Sum");
    }

    public SingleOutputStreamOperator<T> min(int positionToMin) {
        return aggregate(FieldAggregator.byPosition(FieldAggregator.Kind.MIN, getType(), positionToMin), "Min");
    }

    public SingleOutputStreamOperator<T> min(String field) {
        return aggregate(FieldAggregator.byName(FieldAggregator.Kind.MIN, getType(), field, serializerConfig()), "Min");
    }

    public SingleOutputStreamOperator<T> max(int positionToMax) {
        return aggregate(FieldAggregator.byPosition(FieldAggregator.Kind.MAX, getType(), positionToMax), "Max");
    }

    public SingleOutputStreamOperator<T> max(String field) {
        return aggregate(FieldAggregator.byName(FieldAggregator.Kind.MAX, getType(), field, serializerConfig()), "Max");
    }

    public SingleOutputStreamOperator<T> minBy(int position) {
        return aggregate(FieldAggregator.byPosition(FieldAggregator.Kind.MIN_BY, getType(), position), "MinBy");
    }

    public SingleOutputStreamOperator<T> minBy(String field) {
        return aggregate(FieldAggregator.byName(FieldAggregator.Kind.MIN_BY, getType(), field, serializerConfig()), "MinBy");
    }

    public SingleOutputStreamOperator<T> maxBy(int position) {
        return aggregate(FieldAggregator.byPosition(FieldAggregator.Kind.MAX_BY, getType(), position), "MaxBy");
    }

    public SingleOutputStreamOperator<T> maxBy(String field) {
        return aggregate(FieldAggregator.byName(FieldAggregator.Kind.MAX_BY, getType(), field, serializerConfig()), "MaxBy");
    }

    private SerializerConfig serializerConfig() {
        return environment.getConfig().getSerializerConfig();
    }

    private SingleOutputStreamOperator<T> aggregate(FieldAggregator<T> aggregator, String name) {
        return reduce(aggregator).name(name);
    }

    /** Groups each key's records into windows. */
    public <W extends Window> WindowedStream<T, KEY, W> window(WindowAssigner<? super T, W> assigner) {
        return new WindowedStream<>(this, assigner);
    }
}
