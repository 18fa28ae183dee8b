package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.AppendingState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.typeutils.OutputTypeExtractionException;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.streaming.api.functions.windowing.ProcessWindowFunction;
import dev.runnel.streaming.api.functions.windowing.WindowFunction;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.streaming.runtime.operators.windowing.InternalWindowFunction;
import dev.runnel.streaming.runtime.operators.windowing.WindowOperator;
import dev.runnel.util.OutputTag;
import java.time.Duration;
import java.util.Objects;

/**
 * A keyed stream grouped into windows ({@code keyBy(...).window(...)}): choose the trigger, allowed
 * lateness and late-data side output, then evaluate each window with {@code reduce}, {@code aggregate}
 * (both incremental: a window holds one value, not its records) or {@code process}.
 */
public class WindowedStream<T, K, W extends Window> {

    private final KeyedStream<T, K> input;
    private final WindowAssigner<? super T, W> assigner;
    private Trigger<? super T, ? super W> trigger;
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

    // ------------------------------------------------------------------ reduce

    /** Reduces each window's records to one, emitted when the window fires. */
    public SingleOutputStreamOperator<T> reduce(ReduceFunction<T> function) {
        return build("Window(Reduce)", input.getType(), reducingState(function), InternalWindowFunction.passThrough());
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, ProcessWindowFunction<T, R, K, W> function) {
        return build("Window(Reduce, Process)", type(function, ProcessWindowFunction.class, 1, input.getType(), null, input.getKeyType()), reducingState(reduce),
                InternalWindowFunction.singleValue(DataStream.clean(function)));
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, WindowFunction<T, R, K, W> function) {
        return build("Window(Reduce, Apply)", type(function, WindowFunction.class, 1, input.getType(), null, input.getKeyType()), reducingState(reduce),
                InternalWindowFunction.singleValue(DataStream.clean(function)));
    }

    private ReducingStateDescriptor<T> reducingState(ReduceFunction<T> function) {
        return new ReducingStateDescriptor<>("window-contents", DataStream.clean(function), serializer(input.getType()));
    }

    // ------------------------------------------------------------------ aggregate

    /** Folds each window's records into an accumulator; emits the function's result when it fires. */
    public <ACC, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, R> function) {
        return build("Window(Aggregate)", type(function, AggregateFunction.class, 2, input.getType()), aggregatingState(function),
                InternalWindowFunction.passThrough());
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            ProcessWindowFunction<V, R, K, W> function) {
        return build("Window(Aggregate, Process)", type(function, ProcessWindowFunction.class, 1, type(aggregate, AggregateFunction.class, 2,
                        input.getType()), null, input.getKeyType()),
                aggregatingState(aggregate), InternalWindowFunction.singleValue(DataStream.clean(function)));
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            WindowFunction<V, R, K, W> function) {
        return build("Window(Aggregate, Apply)", type(function, WindowFunction.class, 1, type(aggregate, AggregateFunction.class, 2,
                        input.getType()), null, input.getKeyType()), aggregatingState(aggregate),
                InternalWindowFunction.singleValue(DataStream.clean(function)));
    }

    private <ACC, V> AggregatingStateDescriptor<T, ACC, V> aggregatingState(AggregateFunction<T, ACC, V> function) {
        TypeInformation<ACC> accumulatorType;
        try {
            accumulatorType = TypeExtractor.getOutputType(function, AggregateFunction.class, 1, input.getType());
        } catch (OutputTypeExtractionException e) {
            throw new InvalidTypesException(e.problemFor("the accumulator of a window aggregate")
                    + ". Implement AggregateFunction in a (named or anonymous) class that gives it concrete type"
                    + " arguments, for example AggregateFunction<Event, Long, Double>.", e);
        }
        return new AggregatingStateDescriptor<>("window-contents", DataStream.clean(function), serializer(accumulatorType));
    }

    // ------------------------------------------------------------------ process

    /** Hands each fired window's records to {@code function} (the window keeps all its records). */
    public <R> SingleOutputStreamOperator<R> process(ProcessWindowFunction<T, R, K, W> function) {
        return build("Window(Process)", type(function, ProcessWindowFunction.class, 1, input.getType(), null, input.getKeyType()),
                new ListStateDescriptor<>("window-contents", serializer(input.getType())),
                InternalWindowFunction.iterable(DataStream.clean(function)));
    }

    public <R> SingleOutputStreamOperator<R> process(ProcessWindowFunction<T, R, K, W> function, TypeInformation<R> type) {
        return build("Window(Process)", type, new ListStateDescriptor<>("window-contents", serializer(input.getType())),
                InternalWindowFunction.iterable(DataStream.clean(function)));
    }

    /** Hands each fired window's records to {@code function}. */
    public <R> SingleOutputStreamOperator<R> apply(WindowFunction<T, R, K, W> function) {
        return build("Window(Apply)", type(function, WindowFunction.class, 1, input.getType(), null, input.getKeyType()),
                new ListStateDescriptor<>("window-contents", serializer(input.getType())),
                InternalWindowFunction.iterable(DataStream.clean(function)));
    }

    // ------------------------------------------------------------------ helpers

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

    private <X> TypeSerializer<X> serializer(TypeInformation<X> type) {
        return type.createSerializer(input.getExecutionEnvironment().getConfig().getSerializerConfig());
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private <ACC, R> SingleOutputStreamOperator<R> build(String name, TypeInformation<R> outputType,
            StateDescriptor<? extends AppendingState<T, ACC>, ?> state, InternalWindowFunction function) {
        WindowOperator<K, T, ACC, R, W> operator = new WindowOperator<>(assigner,
                assigner.getWindowSerializer(input.getExecutionEnvironment().getConfig()), state, function, trigger,
                allowedLateness, lateDataOutputTag);
        SingleOutputStreamOperator<R> result = input.transform(name, outputType, operator);
        if (outputType == null && typeError != null) {
            result.getTransformation().setMissingType(typeError);
        }
        return result;
    }
}
