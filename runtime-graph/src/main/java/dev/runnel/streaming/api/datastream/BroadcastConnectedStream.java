package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.Function;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.co.BroadcastProcessFunction;
import dev.runnel.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import dev.runnel.streaming.api.operators.StreamOperator;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.api.operators.co.CoBroadcastWithKeyedOperator;
import dev.runnel.streaming.api.operators.co.CoBroadcastWithNonKeyedOperator;
import dev.runnel.streaming.api.transformations.PhysicalTransformation;
import dev.runnel.streaming.api.transformations.Transformation;
import java.util.List;
import java.util.Objects;

/**
 * A stream connected to a {@link BroadcastStream} ({@code stream.connect(broadcastStream)}): one two-input
 * operator whose first input is the stream (keyed or not, partitioned as it is) and whose second input
 * receives every broadcast element in every parallel instance (a BROADCAST edge), as in Flink. Process it
 * with a {@link KeyedBroadcastProcessFunction} when the stream is keyed, else a {@link BroadcastProcessFunction}.
 *
 * <p>Built on the user's thread while the program is assembled.
 *
 * @param <IN1> the type of the non-broadcast stream
 * @param <IN2> the type of the broadcast stream
 */
public class BroadcastConnectedStream<IN1, IN2> {

    private final StreamExecutionEnvironment environment;
    private final DataStream<IN1> nonBroadcastStream;
    private final BroadcastStream<IN2> broadcastStream;
    private InvalidTypesException typeError;

    protected BroadcastConnectedStream(StreamExecutionEnvironment environment, DataStream<IN1> input1,
            BroadcastStream<IN2> input2) {
        this.environment = Objects.requireNonNull(environment, "environment");
        this.nonBroadcastStream = Objects.requireNonNull(input1, "input1");
        this.broadcastStream = Objects.requireNonNull(input2, "input2");
    }

    public StreamExecutionEnvironment getExecutionEnvironment() {
        return environment;
    }

    public DataStream<IN1> getFirstInput() {
        return nonBroadcastStream;
    }

    public BroadcastStream<IN2> getSecondInput() {
        return broadcastStream;
    }

    public TypeInformation<IN1> getType1() {
        return nonBroadcastStream.getType();
    }

    public TypeInformation<IN2> getType2() {
        return broadcastStream.getType();
    }

    /** Processes a keyed stream with the broadcast one: keyed state and timers on the keyed side. */
    public <KEY, OUT> SingleOutputStreamOperator<OUT> process(KeyedBroadcastProcessFunction<KEY, IN1, IN2, OUT> function) {
        KeyedStream<IN1, ?> keyed = requireKeyed();
        return process(function, type(function, KeyedBroadcastProcessFunction.class, 3, keyed.getKeyType(),
                nonBroadcastStream.typeOrNull(), broadcastTypeOrNull()));
    }

    public <KEY, OUT> SingleOutputStreamOperator<OUT> process(KeyedBroadcastProcessFunction<KEY, IN1, IN2, OUT> function,
            TypeInformation<OUT> outTypeInfo) {
        KeyedStream<IN1, ?> keyed = requireKeyed();
        PhysicalTransformation<OUT> t = transform("Co-Process-Broadcast-Keyed", outTypeInfo,
                new CoBroadcastWithKeyedOperator<>(DataStream.clean(function), broadcastStream.getBroadcastStateDescriptors()));
        t.setKeyed(keyed.getKeySelector(), null, keyed.getKeyType());
        return register(t);
    }

    /** Processes a non-keyed stream with the broadcast one. */
    public <OUT> SingleOutputStreamOperator<OUT> process(BroadcastProcessFunction<IN1, IN2, OUT> function) {
        requireNonKeyed();
        return process(function, type(function, BroadcastProcessFunction.class, 2, nonBroadcastStream.typeOrNull(),
                broadcastTypeOrNull()));
    }

    public <OUT> SingleOutputStreamOperator<OUT> process(BroadcastProcessFunction<IN1, IN2, OUT> function,
            TypeInformation<OUT> outTypeInfo) {
        requireNonKeyed();
        return register(transform("Co-Process-Broadcast", outTypeInfo,
                new CoBroadcastWithNonKeyedOperator<>(DataStream.clean(function), broadcastStream.getBroadcastStateDescriptors())));
    }

    private KeyedStream<IN1, ?> requireKeyed() {
        if (!(nonBroadcastStream instanceof KeyedStream<IN1, ?> keyed)) {
            throw new IllegalArgumentException("A KeyedBroadcastProcessFunction can only be used on a keyed stream:"
                    + " call keyBy(...) before connect(broadcastStream), or use a BroadcastProcessFunction.");
        }
        return keyed;
    }

    private void requireNonKeyed() {
        if (nonBroadcastStream instanceof KeyedStream<?, ?>) {
            throw new IllegalArgumentException("A BroadcastProcessFunction can only be used on a non-keyed stream;"
                    + " on a keyed stream use a KeyedBroadcastProcessFunction.");
        }
    }

    private TypeInformation<IN2> broadcastTypeOrNull() {
        Transformation<IN2> t = broadcastStream.getTransformation();
        return t.hasOutputType() ? t.getOutputType() : null;
    }

    private <R> TypeInformation<R> type(Function function, Class<?> functionClass, int outputIndex,
            TypeInformation<?>... inputs) {
        try {
            return TypeExtractor.getOutputType(function, functionClass, outputIndex, inputs);
        } catch (InvalidTypesException e) {
            typeError = e;
            return null;
        }
    }

    @SuppressWarnings("unchecked")
    private <OUT> PhysicalTransformation<OUT> transform(String name, TypeInformation<OUT> type,
            TwoInputStreamOperator<IN1, IN2, OUT> operator) {
        PhysicalTransformation<OUT> t = new PhysicalTransformation<>(environment.nextId(), name,
                (StreamOperator<OUT>) operator, type, Transformation.DEFAULT_PARALLELISM,
                List.of(nonBroadcastStream.getTransformation(), broadcastStream.getTransformation()));
        if (type == null) {
            t.setMissingType(typeError);
        }
        typeError = null;
        return t;
    }

    private <OUT> SingleOutputStreamOperator<OUT> register(PhysicalTransformation<OUT> t) {
        environment.addOperator(t);
        return new SingleOutputStreamOperator<>(environment, t);
    }
}
