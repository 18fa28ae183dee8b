package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.functions.RuntimeContext;
import dev.runnel.api.common.state.KeyedStateStore;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.functions.NullByteKeySelector;
import dev.runnel.api.java.operators.translation.WrappingFunction;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.aggregation.FieldAggregator;
import dev.runnel.streaming.api.functions.windowing.AllWindowFunction;
import dev.runnel.streaming.api.functions.windowing.ProcessAllWindowFunction;
import dev.runnel.streaming.api.functions.windowing.ProcessWindowFunction;
import dev.runnel.streaming.api.functions.windowing.WindowFunction;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.evictors.Evictor;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;
import java.time.Duration;
import java.util.function.Function;

/**
 * A non-keyed stream grouped into windows ({@code windowAll(...)}): every window holds records of
 * the whole stream, so its operator runs as a single subtask (parallelism 1, as in Flink). Choose
 * trigger, evictor, lateness and late-data output as for keyed windows, then evaluate each window with
 * {@code reduce}, {@code aggregate}, {@code apply}, {@code process} or a field aggregation.
 *
 * <p>It is a keyed window on the constant key {@code (byte) 0}, so it has the same semantics and
 * state as keyed windows; window functions see the window but no key.
 *
 * @param <T> the record type
 * @param <W> the window type
 */
public class AllWindowedStream<T, W extends Window> implements FieldAggregations<T> {

    private final WindowedStream<T, Byte, W> windowed;

    public AllWindowedStream(DataStream<T> input, WindowAssigner<? super T, W> windowAssigner) {
        this.windowed = new KeyedStream<>(input, new NullByteKeySelector<T>(), Types.BYTE).window(windowAssigner);
    }

    public AllWindowedStream<T, W> trigger(Trigger<? super T, ? super W> trigger) {
        windowed.trigger(trigger);
        return this;
    }

    /** Removes records from windows when they fire; windows then keep all their records. */
    public AllWindowedStream<T, W> evictor(Evictor<? super T, ? super W> evictor) {
        windowed.evictor(evictor);
        return this;
    }

    public AllWindowedStream<T, W> allowedLateness(Duration lateness) {
        windowed.allowedLateness(lateness);
        return this;
    }

    public AllWindowedStream<T, W> allowedLateness(Time lateness) {
        windowed.allowedLateness(lateness);
        return this;
    }

    public AllWindowedStream<T, W> sideOutputLateData(OutputTag<T> outputTag) {
        windowed.sideOutputLateData(outputTag);
        return this;
    }

    public StreamExecutionEnvironment getExecutionEnvironment() {
        return windowed.getExecutionEnvironment();
    }

    public TypeInformation<T> getInputType() {
        return windowed.getInputType();
    }

    // ------------------------------------------------------------------ reduce

    public SingleOutputStreamOperator<T> reduce(ReduceFunction<T> function) {
        return nonParallel(windowed.reduce(function));
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, AllWindowFunction<T, R, W> function) {
        return reduce(reduce, function, windowed.type(function, AllWindowFunction.class, 1, getInputType()));
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, AllWindowFunction<T, R, W> function,
            TypeInformation<R> resultType) {
        return nonParallel(windowed.reduce(reduce, new AllWindowFunctionAdapter<>(function), resultType));
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, ProcessAllWindowFunction<T, R, W> function) {
        return reduce(reduce, function, windowed.type(function, ProcessAllWindowFunction.class, 1, getInputType()));
    }

    public <R> SingleOutputStreamOperator<R> reduce(ReduceFunction<T> reduce, ProcessAllWindowFunction<T, R, W> function,
            TypeInformation<R> resultType) {
        return nonParallel(windowed.reduce(reduce, new ProcessAllWindowFunctionAdapter<>(function), resultType));
    }

    // ------------------------------------------------------------------ aggregate

    public <ACC, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, R> function) {
        return nonParallel(windowed.aggregate(function));
    }

    public <ACC, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, R> function,
            TypeInformation<ACC> accumulatorType, TypeInformation<R> resultType) {
        return nonParallel(windowed.aggregate(function, accumulatorType, resultType));
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            AllWindowFunction<V, R, W> function) {
        return aggregate(aggregate, function, windowed.accumulatorType(aggregate), windowed.type(function,
                AllWindowFunction.class, 1, windowed.type(aggregate, AggregateFunction.class, 2, getInputType())));
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            AllWindowFunction<V, R, W> function, TypeInformation<ACC> accumulatorType, TypeInformation<R> resultType) {
        return nonParallel(windowed.aggregate(aggregate, new AllWindowFunctionAdapter<>(function), accumulatorType,
                resultType));
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            ProcessAllWindowFunction<V, R, W> function) {
        TypeInformation<V> aggregateType = windowed.type(aggregate, AggregateFunction.class, 2, getInputType());
        return aggregate(aggregate, function, windowed.accumulatorType(aggregate), aggregateType,
                windowed.type(function, ProcessAllWindowFunction.class, 1, aggregateType));
    }

    public <ACC, V, R> SingleOutputStreamOperator<R> aggregate(AggregateFunction<T, ACC, V> aggregate,
            ProcessAllWindowFunction<V, R, W> function, TypeInformation<ACC> accumulatorType,
            TypeInformation<V> aggregateResultType, TypeInformation<R> resultType) {
        return nonParallel(windowed.aggregate(aggregate, new ProcessAllWindowFunctionAdapter<>(function), accumulatorType,
                aggregateResultType, resultType));
    }

    // ------------------------------------------------------------------ apply, process

    public <R> SingleOutputStreamOperator<R> apply(AllWindowFunction<T, R, W> function) {
        return apply(function, windowed.type(function, AllWindowFunction.class, 1, getInputType()));
    }

    public <R> SingleOutputStreamOperator<R> apply(AllWindowFunction<T, R, W> function, TypeInformation<R> resultType) {
        return nonParallel(windowed.apply(new AllWindowFunctionAdapter<>(function), resultType));
    }

    public <R> SingleOutputStreamOperator<R> process(ProcessAllWindowFunction<T, R, W> function) {
        return process(function, windowed.type(function, ProcessAllWindowFunction.class, 1, getInputType()));
    }

    public <R> SingleOutputStreamOperator<R> process(ProcessAllWindowFunction<T, R, W> function,
            TypeInformation<R> resultType) {
        return nonParallel(windowed.process(new ProcessAllWindowFunctionAdapter<>(function), resultType));
    }

    @Override
    public SingleOutputStreamOperator<T> aggregateField(Function<TypeInformation<T>, FieldAggregator<T>> aggregator,
            String name) {
        return nonParallel(windowed.aggregateField(aggregator, name));
    }

    private static <R> SingleOutputStreamOperator<R> nonParallel(SingleOutputStreamOperator<R> operator) {
        return operator.forceNonParallel();
    }

    // ------------------------------------------------------------------ the functions as keyed ones

    /** An {@link AllWindowFunction} run as the window function of the constant key. */
    private static final class AllWindowFunctionAdapter<IN, OUT, W extends Window>
            extends WrappingFunction<AllWindowFunction<IN, OUT, W>> implements WindowFunction<IN, OUT, Byte, W> {
        private static final long serialVersionUID = 1L;

        AllWindowFunctionAdapter(AllWindowFunction<IN, OUT, W> function) {
            super(DataStream.clean(function));
        }

        @Override
        public void apply(Byte key, W window, Iterable<IN> input, Collector<OUT> out) throws Exception {
            wrappedFunction.apply(window, input, out);
        }
    }

    /** A {@link ProcessAllWindowFunction} run as the process window function of the constant key. */
    private static final class ProcessAllWindowFunctionAdapter<IN, OUT, W extends Window>
            extends ProcessWindowFunction<IN, OUT, Byte, W> {
        private static final long serialVersionUID = 1L;
        private final ProcessAllWindowFunction<IN, OUT, W> function;
        private transient ContextAdapter context;

        ProcessAllWindowFunctionAdapter(ProcessAllWindowFunction<IN, OUT, W> function) {
            this.function = DataStream.clean(function);
        }

        @Override
        public void open(OpenContext openContext) throws Exception {
            function.open(openContext);
        }

        @Override
        public void close() throws Exception {
            function.close();
        }

        @Override
        public void setRuntimeContext(RuntimeContext runtimeContext) {
            super.setRuntimeContext(runtimeContext);
            function.setRuntimeContext(runtimeContext);
        }

        @Override
        public void process(Byte key, Context keyed, Iterable<IN> elements, Collector<OUT> out) throws Exception {
            function.process(context(keyed), elements, out);
        }

        @Override
        public void clear(Context keyed) throws Exception {
            function.clear(context(keyed));
        }

        private ContextAdapter context(Context keyed) {
            if (context == null) {
                context = new ContextAdapter();
            }
            context.keyed = keyed;
            return context;
        }

        /** The keyed window context, without the key. */
        private final class ContextAdapter extends ProcessAllWindowFunction<IN, OUT, W>.Context {
            private ProcessWindowFunction<IN, OUT, Byte, W>.Context keyed;

            ContextAdapter() {
                function.super();
            }

            @Override
            public W window() {
                return keyed.window();
            }

            @Override
            public KeyedStateStore windowState() {
                return keyed.windowState();
            }

            @Override
            public KeyedStateStore globalState() {
                return keyed.globalState();
            }

            @Override
            public <X> void output(OutputTag<X> outputTag, X value) {
                keyed.output(outputTag, value);
            }
        }
    }
}
