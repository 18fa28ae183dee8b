package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.functions.RichFunction;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.AppendingState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.typeutils.OutputTypeExtractionException;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.aggregation.FieldAggregator;
import dev.runnel.streaming.api.functions.windowing.ProcessWindowFunction;
import dev.runnel.streaming.api.functions.windowing.WindowFunction;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.evictors.Evictor;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.streaming.runtime.operators.windowing.EvictingWindowOperator;
import dev.runnel.streaming.runtime.operators.windowing.InternalWindowFunction;
import dev.runnel.streaming.runtime.operators.windowing.WindowOperator;
import dev.runnel.util.OutputTag;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * A keyed stream grouped into windows ({@code keyBy(...).window(...)}): choose the trigger, an
 * evictor, allowed lateness and late-data side output, then evaluate each window with {@code reduce},
 * {@code aggregate} (both incremental: a window holds one value, not its records), {@code process},
 * {@code apply} or a field aggregation ({@code sum}, {@code min}, {@code maxBy}, ...).
 *
 * <p>With an evictor, windows keep all their records (so that the evictor can remove some), and
 * {@code reduce} and {@code aggregate} run over them when the window fires.
 */
public class WindowedStream<T, K, W extends Window> implements FieldAggregations<T> {

    private final KeyedStream<T, K> input;
    private final WindowAssigner<? super T, W> assigner;
    private Trigger<? super T, ? super W> trigger;
    private Evictor<? super T, ? super W> evictor;
    private long allowedLateness;
    private OutputTag<T> lateDataOutputTag;

    @SuppressWarnings("unchecked")
    WindowedStream(KeyedStream<T, K> input, WindowAssigner<? super T, W> assigner) {
        this.input = input;
        this.assigner = Objects.requireNonNull(assigner, "assigner");
        this.trigger = (Trigger<? super T, ? super W>) assigner.getDefaultTrigger();
    }

    public WindowedStream<T, K, W> trigger(Trigger<? super T, ? super W> trigger) {
        this.trigger = Objects.requireNonNull(trigger, "trigger");
        return this;
    }

    /**
     * Removes records from windows when they fire, before and/or after the window function. Windows
     * then keep all their records; {@code reduce} and {@code aggregate} run over them at firing time.
     */
    public WindowedStream<T, K, W> evictor(Evictor<? super T, ? super W> evictor) {
        this.evictor = Objects.requireNonNull(evictor, "evictor");
        return this;
    }

    /** Keeps windows (and fires them again for late records) this long after their end. */
    public WindowedStream<T, K, W> allowedLateness(Duration lateness) {
        if (lateness.isNegative()) {
            throw new IllegalArgumentException("Allowed lateness must not be negative, was " + lateness);
        }
        if (!assigner.isEventTime() && !lateness.isZero()) {
            throw new IllegalArgumentException("Allowed lateness only applies to event-time windows");
        }
        this.allowedLateness = lateness.toMillis();
        return this;
    }

    public WindowedStream<T, K, W> allowedLateness(Time lateness) {
        return allowedLateness(lateness.toDuration());
    }

    /** Sends records too late for every window to {@code outputTag} instead of dropping them. */
    public WindowedStream<T, K, W> sideOutputLateData(OutputTag<T> outputTag) {
        this.lateDataOutputTag = Objects.requireNonNull(outputTag, "outputTag");
        return this;
    }

    public StreamExecutionEnvironment getExecutionEnvironment() {
        return input.getExecutionEnvironment();
    }

    public TypeInformation<T> getInputType() {
        return input.getType();
    }

    // ------------------------------------------------------------------ reduce

    /** Reduces each window's records to one, emitted when the window fires. */
    public SingleOutputStreamOperator<T> reduce(ReduceFunction<T> function) {
        return reduced("Window(Reduce)", input.getType(), function, InternalWindowFunction.passThrough());
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, ProcessWindowFunction<T, R, K, W> function) {
        return reduce(reduce, function, type(function, ProcessWindowFunction.class, 1, input.getType(), null, input.getKeyType()));
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, ProcessWindowFunction<T, R, K, W> function,
            TypeInformation<R> resultType) {
        return reduced("Window(Reduce, Process)", resultType, reduce, InternalWindowFunction.singleValue(DataStream.clean(function)));
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, WindowFunction<T, R, K, W> function) {
        return reduce(reduce, function, type(function, WindowFunction.class, 1, input.getType(), null, input.getKeyType()));
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, WindowFunction<T, R, K, W> function,
            TypeInformation<R> resultType) {
        return reduced("Window(Reduce, Apply)", resultType, reduce, InternalWindowFunction.singleValue(DataStream.clean(function)));
    }

    private <R> SingleOutputStreamOperator<R> reduced(String name, TypeInformation<R> outputType, ReduceFunction<T> reduce,
            InternalWindowFunction<T, R, K, W> function) {
        ReduceFunction<T> cleaned = DataStream.clean(reduce);
        if (cleaned instanceof RichFunction) {
            throw new UnsupportedOperationException("The ReduceFunction of a window reduce cannot be a RichFunction; "
                    + "use reduce(ReduceFunction, ProcessWindowFunction) for state and lifecycle.");
        }
        if (evictor != null) {
            return evicting(name, outputType, InternalWindowFunction.reducing(cleaned, function));
        }
        return build(name, outputType, new ReducingStateDescriptor<>("window-contents", cleaned, serializer(input.getType())),
                function);
    }

    // ------------------------------------------------------------------ aggregate

    /** Folds each window's records into an accumulator; emits the function's result when it fires. */
    public <ACC, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, R> function) {
        return aggregate(function, accumulatorType(function), type(function, AggregateFunction.class, 2, input.getType()));
    }

    public <ACC, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, R> function,
            TypeInformation<ACC> accumulatorType, TypeInformation<R> resultType) {
        return aggregated("Window(Aggregate)", resultType, function, accumulatorType, InternalWindowFunction.passThrough());
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            ProcessWindowFunction<V, R, K, W> function) {
        TypeInformation<V> aggregateType = type(aggregate, AggregateFunction.class, 2, input.getType());
        return aggregate(aggregate, function, accumulatorType(aggregate), aggregateType,
                type(function, ProcessWindowFunction.class, 1, aggregateType, null, input.getKeyType()));
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            ProcessWindowFunction<V, R, K, W> function, TypeInformation<ACC> accumulatorType,
            TypeInformation<V> aggregateResultType, TypeInformation<R> resultType) {
        return aggregated("Window(Aggregate, Process)", resultType, aggregate, accumulatorType,
                InternalWindowFunction.singleValue(DataStream.clean(function)));
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            WindowFunction<V, R, K, W> function) {
        return aggregate(aggregate, function, accumulatorType(aggregate), type(function, WindowFunction.class, 1,
                type(aggregate, AggregateFunction.class, 2, input.getType()), null, input.getKeyType()));
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            WindowFunction<V, R, K, W> function, TypeInformation<ACC> accumulatorType, TypeInformation<R> resultType) {
        return aggregated("Window(Aggregate, Apply)", resultType, aggregate, accumulatorType,
                InternalWindowFunction.singleValue(DataStream.clean(function)));
    }

    private <ACC, V, R> SingleOutputStreamOperator<R> aggregated(String name, TypeInformation<R> outputType,
            AggregateFunction<T, ACC, V> aggregate, TypeInformation<ACC> accumulatorType,
            InternalWindowFunction<V, R, K, W> function) {
        AggregateFunction<T, ACC, V> cleaned = DataStream.clean(aggregate);
        if (cleaned instanceof RichFunction) {
            throw new UnsupportedOperationException("The AggregateFunction of a window aggregate cannot be a RichFunction; "
                    + "use aggregate(AggregateFunction, ProcessWindowFunction) for state and lifecycle.");
        }
        if (evictor != null) {
            return evicting(name, outputType, InternalWindowFunction.aggregating(cleaned, function));
        }
        return build(name, outputType, new AggregatingStateDescriptor<>("window-contents", cleaned,
                serializer(Objects.requireNonNull(accumulatorType, "accumulatorType"))), function);
    }

    <ACC> TypeInformation<ACC> accumulatorType(AggregateFunction<T, ACC, ?> function) {
        try {
            return TypeExtractor.getOutputType(function, AggregateFunction.class, 1, input.getType());
        } catch (OutputTypeExtractionException e) {
            throw new InvalidTypesException(e.problemFor("the accumulator of a window aggregate")
                    + ". Implement AggregateFunction in a (named or anonymous) class that gives it concrete type"
                    + " arguments, for example AggregateFunction<Event, Long, Double>.", e);
        }
    }

    // ------------------------------------------------------------------ process, apply

    /** Hands each fired window's records to {@code function} (the window keeps all its records). */
    public <R> SingleOutputStreamOperator<R> process(ProcessWindowFunction<T, R, K, W> function) {
        return process(function, type(function, ProcessWindowFunction.class, 1, input.getType(), null, input.getKeyType()));
    }

    public <R> SingleOutputStreamOperator<R> process(ProcessWindowFunction<T, R, K, W> function, TypeInformation<R> resultType) {
        return iterated("Window(Process)", resultType, InternalWindowFunction.iterable(DataStream.clean(function)));
    }

    /** Hands each fired window's records to {@code function}. */
    public <R> SingleOutputStreamOperator<R> apply(WindowFunction<T, R, K, W> function) {
        return apply(function, type(function, WindowFunction.class, 1, input.getType(), null, input.getKeyType()));
    }

    public <R> SingleOutputStreamOperator<R> apply(WindowFunction<T, R, K, W> function, TypeInformation<R> resultType) {
        return iterated("Window(Apply)", resultType, InternalWindowFunction.iterable(DataStream.clean(function)));
    }

    private <R> SingleOutputStreamOperator<R> iterated(String name, TypeInformation<R> outputType,
            InternalWindowFunction<Iterable<T>, R, K, W> function) {
        if (evictor != null) {
            return evicting(name, outputType, function);
        }
        return build(name, outputType, new ListStateDescriptor<>("window-contents", serializer(input.getType())), function);
    }

    // ------------------------------------------------------------------ field aggregations

    @Override
    public SingleOutputStreamOperator<T> aggregateField(Function<TypeInformation<T>, FieldAggregator<T>> aggregator,
            String name) {
        return reduced("Window(" + name + ")", input.getType(), aggregator.apply(input.getType()),
                InternalWindowFunction.passThrough());
    }

    // ------------------------------------------------------------------ helpers

    private InvalidTypesException typeError;

    /** The function's output type, or null after remembering why it could not be found. */
    <R> TypeInformation<R> type(dev.runnel.api.common.functions.Function function, Class<?> functionClass,
            int outputIndex, TypeInformation<?>... inputs) {
        try {
            return TypeExtractor.getOutputType(function, functionClass, outputIndex, inputs);
        } catch (InvalidTypesException e) {
            typeError = e;
            return null;
        }
    }

    private <X> TypeSerializer<X> serializer(TypeInformation<X> type) {
        return type.createSerializer(input.getExecutionEnvironment().getConfig().getSerializerConfig());
    }

    private TypeSerializer<W> windowSerializer() {
        return assigner.getWindowSerializer(input.getExecutionEnvironment().getConfig());
    }

    private <ACC, R> SingleOutputStreamOperator<R> build(String name, TypeInformation<R> outputType,
            StateDescriptor<? extends AppendingState<T, ACC>, ?> state, InternalWindowFunction<ACC, R, K, W> function) {
        return transform(name, outputType, new WindowOperator<>(assigner, windowSerializer(), state, function, trigger,
                allowedLateness, lateDataOutputTag));
    }

    private <R> SingleOutputStreamOperator<R> evicting(String name, TypeInformation<R> outputType,
            InternalWindowFunction<Iterable<T>, R, K, W> function) {
        return transform("Evicting" + name, outputType, new EvictingWindowOperator<>(assigner, windowSerializer(),
                serializer(input.getType()), function, trigger, evictor, allowedLateness, lateDataOutputTag));
    }

    private <R> SingleOutputStreamOperator<R> transform(String name, TypeInformation<R> outputType,
            WindowOperator<K, T, ?, R, W> operator) {
        SingleOutputStreamOperator<R> result = input.transform(name, outputType, operator);
        if (outputType == null && typeError != null) {
            result.getTransformation().setMissingType(typeError);
        }
        return result;
    }
}
