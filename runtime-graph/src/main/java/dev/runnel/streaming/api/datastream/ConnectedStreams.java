package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.co.CoFlatMapFunction;
import dev.runnel.streaming.api.functions.co.CoMapFunction;
import dev.runnel.streaming.api.functions.co.CoProcessFunction;
import dev.runnel.streaming.api.functions.co.KeyedCoProcessFunction;
import dev.runnel.streaming.api.operators.co.CoProcessOperator;
import dev.runnel.streaming.api.operators.co.CoStreamFlatMap;
import dev.runnel.streaming.api.operators.co.CoStreamMap;
import dev.runnel.streaming.api.operators.co.KeyedCoProcessOperator;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.api.transformations.PhysicalTransformation;
import dev.runnel.streaming.api.transformations.Transformation;
import java.util.List;
import java.util.Objects;

/**
 * Two streams, possibly of different types, processed by one operator that sees both ({@code connect}).
 * When both are keyed (with keys of the same type), the operator is keyed and shares state between
 * the two inputs per key.
 */
public class ConnectedStreams<IN1, IN2> {

    private final StreamExecutionEnvironment environment;
    private final DataStream<IN1> first;
    private final DataStream<IN2> second;

    ConnectedStreams(StreamExecutionEnvironment environment, DataStream<IN1> first, DataStream<IN2> second) {
        this.environment = environment;
        this.first = Objects.requireNonNull(first, "first");
        this.second = Objects.requireNonNull(second, "second");
    }

    public DataStream<IN1> getFirstInput() {
        return first;
    }

    public DataStream<IN2> getSecondInput() {
        return second;
    }

    /** Keys both inputs; records with equal keys meet in the same subtask. */
    public <K> ConnectedStreams<IN1, IN2> keyBy(KeySelector<IN1, K> keySelector1, KeySelector<IN2, K> keySelector2) {
        return new ConnectedStreams<>(environment, first.keyBy(keySelector1), second.keyBy(keySelector2));
    }

    public <R> SingleOutputStreamOperator<R> map(CoMapFunction<IN1, IN2, R> mapper) {
        return transform("Co-Map", type(mapper, CoMapFunction.class, 2, first.typeOrNull(), second.typeOrNull()), new CoStreamMap<>(DataStream.clean(mapper)));
    }

    public <R> SingleOutputStreamOperator<R> map(CoMapFunction<IN1, IN2, R> mapper, TypeInformation<R> type) {
        return transform("Co-Map", type, new CoStreamMap<>(DataStream.clean(mapper)));
    }

    public <R> SingleOutputStreamOperator<R> flatMap(CoFlatMapFunction<IN1, IN2, R> flatMapper) {
        return transform("Co-Flat Map", type(flatMapper, CoFlatMapFunction.class, 2, first.typeOrNull(), second.typeOrNull()),
                new CoStreamFlatMap<>(DataStream.clean(flatMapper)));
    }

    public <R> SingleOutputStreamOperator<R> flatMap(CoFlatMapFunction<IN1, IN2, R> flatMapper, TypeInformation<R> type) {
        return transform("Co-Flat Map", type, new CoStreamFlatMap<>(DataStream.clean(flatMapper)));
    }

    public <R> SingleOutputStreamOperator<R> process(CoProcessFunction<IN1, IN2, R> function) {
        return transform("Co-Process", type(function, CoProcessFunction.class, 2, first.typeOrNull(), second.typeOrNull()),
                new CoProcessOperator<>(DataStream.clean(function)));
    }

    public <R> SingleOutputStreamOperator<R> process(CoProcessFunction<IN1, IN2, R> function, TypeInformation<R> type) {
        return transform("Co-Process", type, new CoProcessOperator<>(DataStream.clean(function)));
    }

    public <K, R> SingleOutputStreamOperator<R> process(KeyedCoProcessFunction<K, IN1, IN2, R> function) {
        requireKeyed("KeyedCoProcessFunction");
        return transform("Keyed Co-Process", type(function, KeyedCoProcessFunction.class, 3, ((KeyedStream<IN1, ?>) first).getKeyType(), first.typeOrNull(),
                        second.typeOrNull()),
                new KeyedCoProcessOperator<>(DataStream.clean(function)));
    }

    public <K, R> SingleOutputStreamOperator<R> process(KeyedCoProcessFunction<K, IN1, IN2, R> function,
            TypeInformation<R> type) {
        requireKeyed("KeyedCoProcessFunction");
        return transform("Keyed Co-Process", type, new KeyedCoProcessOperator<>(DataStream.clean(function)));
    }

    private void requireKeyed(String what) {
        if (!(first instanceof KeyedStream<?, ?>) || !(second instanceof KeyedStream<?, ?>)) {
            throw new UnsupportedOperationException("A " + what + " needs two keyed streams: connect two keyBy() "
                    + "streams, or call keyBy(selector1, selector2) on the connected streams.");
        }
    }

    private InvalidTypesException typeError;

    private <R> TypeInformation<R> type(dev.runnel.api.common.functions.Function function, Class<?> functionClass,
            int outputIndex, TypeInformation<?>... inputs) {
        try {
            return TypeExtractor.getOutputType(function, functionClass, outputIndex, inputs);
        } catch (InvalidTypesException e) {
            typeError = e;
            return null;
        }
    }

    /**
     * Adds a two-input operator of one's own (advanced: most jobs use the methods above). When both
     * inputs are keyed, the operator is keyed.
     */
    public <R> SingleOutputStreamOperator<R> transform(String name, TypeInformation<R> type,
            TwoInputStreamOperator<IN1, IN2, R> operator) {
        @SuppressWarnings("unchecked")
        PhysicalTransformation<R> t = new PhysicalTransformation<>(environment.nextId(), name,
                (dev.runnel.streaming.api.operators.StreamOperator<R>) operator, type, Transformation.DEFAULT_PARALLELISM,
                List.of(first.getTransformation(), second.getTransformation()));
        if (type == null) {
            t.setMissingType(typeError);
        }
        if (first instanceof KeyedStream<IN1, ?> k1 && second instanceof KeyedStream<IN2, ?> k2) {
            if (!k1.getKeyType().equals(k2.getKeyType())) {
                throw new InvalidTypesException("The two connected keyed streams have different key types: "
                        + k1.getKeyType() + " and " + k2.getKeyType() + ". Key both by the same type.");
            }
            t.setKeyed(k1.getKeySelector(), k2.getKeySelector(), k1.getKeyType());
        }
        environment.addOperator(t);
        return new SingleOutputStreamOperator<>(environment, t);
    }
}
