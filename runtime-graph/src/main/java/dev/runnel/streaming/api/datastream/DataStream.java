package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.FilterFunction;
import dev.runnel.api.common.functions.FlatMapFunction;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.functions.Partitioner;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.connector.sink2.Sink;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.runtime.partitioner.BroadcastPartitioner;
import dev.runnel.runtime.partitioner.CustomPartitionerWrapper;
import dev.runnel.runtime.partitioner.ForwardPartitioner;
import dev.runnel.runtime.partitioner.GlobalPartitioner;
import dev.runnel.runtime.partitioner.RebalancePartitioner;
import dev.runnel.runtime.partitioner.RescalePartitioner;
import dev.runnel.runtime.partitioner.ShufflePartitioner;
import dev.runnel.runtime.partitioner.StreamPartitioner;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.ProcessFunction;
import dev.runnel.streaming.api.functions.sink.PrintSinkFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.streaming.api.functions.sink.TextOutputSinkFunction;
import dev.runnel.streaming.api.functions.AssignerWithPeriodicWatermarks;
import dev.runnel.streaming.api.functions.AssignerWithPunctuatedWatermarks;
import dev.runnel.streaming.runtime.operators.util.AssignerWithPeriodicWatermarksAdapter;
import dev.runnel.streaming.runtime.operators.util.AssignerWithPunctuatedWatermarksAdapter;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.ProcessOperator;
import dev.runnel.streaming.api.operators.StreamFilter;
import dev.runnel.streaming.api.operators.StreamFlatMap;
import dev.runnel.streaming.api.operators.StreamMap;
import dev.runnel.streaming.api.operators.StreamSink;
import dev.runnel.streaming.api.operators.TimestampsAndWatermarksOperator;
import dev.runnel.streaming.api.operators.sink.SinkWriterOperator;
import dev.runnel.streaming.api.transformations.PartitionTransformation;
import dev.runnel.streaming.api.transformations.PhysicalTransformation;
import dev.runnel.streaming.api.transformations.SinkTransformation;
import dev.runnel.streaming.api.transformations.Transformation;
import dev.runnel.streaming.api.transformations.UnionTransformation;
import dev.runnel.streaming.api.operators.collect.CollectStreamSink;
import dev.runnel.streaming.api.windowing.assigners.GlobalWindows;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.evictors.CountEvictor;
import dev.runnel.streaming.api.windowing.triggers.CountTrigger;
import dev.runnel.streaming.api.windowing.triggers.PurgingTrigger;
import dev.runnel.streaming.api.windowing.windows.GlobalWindow;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.CloseableIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A stream of records of type {@code T}, as in Flink: apply operators to get new streams, partition
 * it, and end it in a sink. Nothing runs until the environment executes the job.
 *
 * <p>Output types of functions are extracted from their generic signatures; where a lambda's output
 * type is erased (tuples, collectors), add {@code .returns(...)} after the operator.
 */
public class DataStream<T> {

    protected final StreamExecutionEnvironment environment;
    protected final Transformation<T> transformation;

    public DataStream(StreamExecutionEnvironment environment, Transformation<T> transformation) {
        this.environment = Objects.requireNonNull(environment, "environment");
        this.transformation = Objects.requireNonNull(transformation, "transformation");
    }

    public StreamExecutionEnvironment getExecutionEnvironment() {
        return environment;
    }

    public Transformation<T> getTransformation() {
        return transformation;
    }

    /** The record type; fails naming the operator when it could not be determined. */
    public TypeInformation<T> getType() {
        return transformation.getOutputType();
    }

    public int getParallelism() {
        int p = transformation.getParallelism();
        return p > 0 ? p : environment.getParallelism();
    }

    // ------------------------------------------------------------------ one-to-one operators

    public <R> SingleOutputStreamOperator<R> map(MapFunction<T, R> mapper) {
        return transform("Map", outputType(mapper, MapFunction.class, 1, typeOrNull()), new StreamMap<>(clean(mapper)));
    }

    public <R> SingleOutputStreamOperator<R> map(MapFunction<T, R> mapper, TypeInformation<R> outputType) {
        return transform("Map", outputType, new StreamMap<>(clean(mapper)));
    }

    public <R> SingleOutputStreamOperator<R> flatMap(FlatMapFunction<T, R> flatMapper) {
        return transform("Flat Map", outputType(flatMapper, FlatMapFunction.class, 1, typeOrNull()), new StreamFlatMap<>(clean(flatMapper)));
    }

    public <R> SingleOutputStreamOperator<R> flatMap(FlatMapFunction<T, R> flatMapper, TypeInformation<R> outputType) {
        return transform("Flat Map", outputType, new StreamFlatMap<>(clean(flatMapper)));
    }

    public SingleOutputStreamOperator<T> filter(FilterFunction<T> filter) {
        return transform("Filter", typeOrNull(), new StreamFilter<>(clean(filter)));
    }

    public <R> SingleOutputStreamOperator<R> process(ProcessFunction<T, R> processFunction) {
        return transform("Process", outputType(processFunction, ProcessFunction.class, 1, typeOrNull()),
                new ProcessOperator<>(clean(processFunction)));
    }

    public <R> SingleOutputStreamOperator<R> process(ProcessFunction<T, R> processFunction, TypeInformation<R> outputType) {
        return transform("Process", outputType, new ProcessOperator<>(clean(processFunction)));
    }

    /** Stamps records with event timestamps and emits watermarks, per {@code strategy}. */
    public SingleOutputStreamOperator<T> assignTimestampsAndWatermarks(WatermarkStrategy<T> strategy) {
        Objects.requireNonNull(strategy, "strategy");
        SingleOutputStreamOperator<T> result =
                transform("Timestamps/Watermarks", typeOrNull(), new TimestampsAndWatermarksOperator<>(strategy));
        // As in Flink, the assigner runs with its input's parallelism, so it chains to it and sees the
        // records in the order the input produced them.
        if (transformation.getParallelism() > 0) {
            result.setParallelism(transformation.getParallelism());
        }
        return result;
    }

    /**
     * Stamps records and emits watermarks with a legacy periodic assigner; see
     * {@link AssignerWithPeriodicWatermarks}.
     *
     * @deprecated as in Flink: use {@link #assignTimestampsAndWatermarks(WatermarkStrategy)}
     */
    @Deprecated
    public SingleOutputStreamOperator<T> assignTimestampsAndWatermarks(
            AssignerWithPeriodicWatermarks<T> timestampAndWatermarkAssigner) {
        Objects.requireNonNull(timestampAndWatermarkAssigner, "timestampAndWatermarkAssigner");
        return assignTimestampsAndWatermarks(
                new AssignerWithPeriodicWatermarksAdapter.Strategy<>(clean(timestampAndWatermarkAssigner)));
    }

    /**
     * Stamps records and emits watermarks with a legacy punctuated assigner, which may emit a
     * watermark after each record; see {@link AssignerWithPunctuatedWatermarks}.
     *
     * @deprecated as in Flink: use {@link #assignTimestampsAndWatermarks(WatermarkStrategy)}
     */
    @Deprecated
    public SingleOutputStreamOperator<T> assignTimestampsAndWatermarks(
            AssignerWithPunctuatedWatermarks<T> timestampAndWatermarkAssigner) {
        Objects.requireNonNull(timestampAndWatermarkAssigner, "timestampAndWatermarkAssigner");
        return assignTimestampsAndWatermarks(
                new AssignerWithPunctuatedWatermarksAdapter.Strategy<>(clean(timestampAndWatermarkAssigner)));
    }

    /** Adds an operator of one's own (advanced; most jobs use the methods above). */
    public <R> SingleOutputStreamOperator<R> transform(String operatorName, TypeInformation<R> outputType,
            OneInputStreamOperator<T, R> operator) {
        PhysicalTransformation<R> t = new PhysicalTransformation<>(environment.nextId(), operatorName, operator,
                outputType, Transformation.DEFAULT_PARALLELISM, List.of(transformation));
        if (outputType == null) {
            t.setMissingType(pendingTypeError);
        }
        pendingTypeError = null;
        configureKeyed(t);
        environment.addOperator(t);
        return new SingleOutputStreamOperator<>(environment, t);
    }

    /** Overridden by keyed streams to make new operators keyed. */
    protected void configureKeyed(PhysicalTransformation<?> t) {}

    // ------------------------------------------------------------------ partitioning

    /** Partitions by key: records with equal keys go to the same subtask, with keyed state per key. */
    public <K> KeyedStream<T, K> keyBy(KeySelector<T, K> key) {
        return new KeyedStream<>(this, clean(key));
    }

    /** Like {@link #keyBy(KeySelector)}, with the key type given (when it cannot be extracted). */
    public <K> KeyedStream<T, K> keyBy(KeySelector<T, K> key, TypeInformation<K> keyType) {
        return new KeyedStream<>(this, clean(key), keyType);
    }

    /**
     * Partitions by the tuple fields at {@code fields}; the key is a {@link dev.runnel.api.java.tuple.Tuple} of
     * them, as in Flink.
     *
     * @deprecated as in Flink: use a {@link KeySelector}
     */
    @Deprecated
    public KeyedStream<T, dev.runnel.api.java.tuple.Tuple> keyBy(int... fields) {
        dev.runnel.streaming.util.keys.KeySelectorUtil.Keyed<T> keyed =
                dev.runnel.streaming.util.keys.KeySelectorUtil.forPositions(getType(), fields);
        return new KeyedStream<>(this, keyed.selector(), keyed.keyType());
    }

    /**
     * Partitions by fields named by expressions ({@code "word"}, {@code "f0"}, {@code "user.id"}); the key is
     * a {@link dev.runnel.api.java.tuple.Tuple} of them, as in Flink.
     *
     * @deprecated as in Flink: use a {@link KeySelector}
     */
    @Deprecated
    public KeyedStream<T, dev.runnel.api.java.tuple.Tuple> keyBy(String... fields) {
        dev.runnel.streaming.util.keys.KeySelectorUtil.Keyed<T> keyed =
                dev.runnel.streaming.util.keys.KeySelectorUtil.forExpressions(getType(), fields);
        return new KeyedStream<>(this, keyed.selector(), keyed.keyType());
    }

    /** Sends every record to every downstream subtask. */
    public DataStream<T> broadcast() {
        return partition(new BroadcastPartitioner<>());
    }

    /**
     * A broadcast stream for the broadcast state pattern: every element goes to every parallel instance of
     * the operator it is {@link #connect(BroadcastStream) connected} to, which keeps one broadcast state
     * (a map) per descriptor.
     */
    public BroadcastStream<T> broadcast(final MapStateDescriptor<?, ?>... broadcastStateDescriptors) {
        Objects.requireNonNull(broadcastStateDescriptors, "broadcastStateDescriptors");
        for (MapStateDescriptor<?, ?> descriptor : broadcastStateDescriptors) {
            Objects.requireNonNull(descriptor, "a broadcast state descriptor is null");
        }
        DataStream<T> broadcast = broadcast();
        return new BroadcastStream<>(environment, broadcast.getTransformation(), broadcastStateDescriptors);
    }

    /** Round robin over all downstream subtasks. */
    public DataStream<T> rebalance() {
        return partition(new RebalancePartitioner<>());
    }

    /** Round robin over a local subset of downstream subtasks (pointwise). */
    public DataStream<T> rescale() {
        return partition(new RescalePartitioner<>());
    }

    /** Random downstream subtask per record. */
    public DataStream<T> shuffle() {
        return partition(new ShufflePartitioner<>());
    }

    /** Everything to downstream subtask 0. */
    public DataStream<T> global() {
        return partition(new GlobalPartitioner<>());
    }

    /** Subtask i to subtask i; both sides need the same parallelism. */
    public DataStream<T> forward() {
        return partition(new ForwardPartitioner<>());
    }

    /** Chooses the downstream subtask with {@code partitioner} on the key {@code keySelector} extracts. */
    public <K> DataStream<T> partitionCustom(Partitioner<K> partitioner, KeySelector<T, K> keySelector) {
        return partition(new CustomPartitionerWrapper<>(clean(partitioner), clean(keySelector)));
    }

    protected DataStream<T> partition(StreamPartitioner<T> partitioner) {
        return new DataStream<>(environment, new PartitionTransformation<>(environment.nextId(), transformation, partitioner));
    }

    // ------------------------------------------------------------------ combining

    /** The records of this stream and of {@code streams}, which must have the same type. */
    @SafeVarargs
    public final DataStream<T> union(DataStream<T>... streams) {
        List<Transformation<T>> inputs = new ArrayList<>();
        inputs.add(transformation);
        for (DataStream<T> other : streams) {
            if (transformation.hasOutputType() && other.transformation.hasOutputType()
                    && !getType().equals(other.getType())) {
                throw new IllegalArgumentException("Cannot union streams of different types: " + getType() + " and "
                        + other.getType() + ". Map them to one type first.");
            }
            inputs.add(other.transformation);
        }
        return new DataStream<>(environment, new UnionTransformation<>(environment.nextId(), inputs));
    }

    /** Joins this stream with {@code otherStream} by key, over windows: {@code join(other).where(...).equalTo(...).window(...)}. */
    public <T2> JoinedStreams<T, T2> join(DataStream<T2> otherStream) {
        return new JoinedStreams<>(this, otherStream);
    }

    /** Co-groups this stream with {@code otherStream} by key, over windows: {@code coGroup(other).where(...).equalTo(...).window(...)}. */
    public <T2> CoGroupedStreams<T, T2> coGroup(DataStream<T2> otherStream) {
        return new CoGroupedStreams<>(this, otherStream);
    }

    /** Pairs this stream with {@code other} for operators that see both (co-map, co-process). */
    public <R> ConnectedStreams<T, R> connect(DataStream<R> other) {
        return new ConnectedStreams<>(environment, this, other);
    }

    /**
     * Connects this stream (keyed or not) to {@code broadcastStream}: process the pair with a
     * {@code BroadcastProcessFunction} or, when this stream is keyed, a {@code KeyedBroadcastProcessFunction}.
     */
    public <R> BroadcastConnectedStream<T, R> connect(BroadcastStream<R> broadcastStream) {
        return new BroadcastConnectedStream<>(environment, this, broadcastStream);
    }

    // ------------------------------------------------------------------ windows of the whole stream

    /** Groups the whole stream into windows, evaluated by one subtask (parallelism 1). */
    public <W extends Window> AllWindowedStream<T, W> windowAll(WindowAssigner<? super T, W> assigner) {
        return new AllWindowedStream<>(this, assigner);
    }

    /** Tumbling count windows over the whole stream: groups of {@code size} records. */
    public AllWindowedStream<T, GlobalWindow> countWindowAll(long size) {
        return windowAll(GlobalWindows.create()).trigger(PurgingTrigger.of(CountTrigger.of(size)));
    }

    /** Sliding count windows over the whole stream: every {@code slide} records, the last {@code size}. */
    public AllWindowedStream<T, GlobalWindow> countWindowAll(long size, long slide) {
        return windowAll(GlobalWindows.create()).evictor(CountEvictor.of(size)).trigger(CountTrigger.of(slide));
    }

    // ------------------------------------------------------------------ iterations

    /**
     * Not supported: Runnel does not run iterations, as Flink 2 removed them.
     *
     * @throws UnsupportedOperationException always, saying what to use instead
     */
    public IterativeStream<T> iterate() {
        throw new UnsupportedOperationException(IterativeStream.NOT_SUPPORTED);
    }

    /**
     * Not supported, as {@link #iterate()}.
     *
     * @throws UnsupportedOperationException always, saying what to use instead
     */
    public IterativeStream<T> iterate(long maxWaitTimeMillis) {
        throw new UnsupportedOperationException(IterativeStream.NOT_SUPPORTED);
    }

    // ------------------------------------------------------------------ sinks

    /** Writes each record's {@code toString()} to standard out, prefixed {@code subtask> } when parallel. */
    public DataStreamSink<T> print() {
        return addSink(new PrintSinkFunction<>()).name("Print to Std. Out");
    }

    public DataStreamSink<T> print(String sinkIdentifier) {
        return addSink(new PrintSinkFunction<>(sinkIdentifier, false)).name("Print to Std. Out");
    }

    public DataStreamSink<T> printToErr() {
        return addSink(new PrintSinkFunction<>(null, true)).name("Print to Std. Err");
    }

    /**
     * Writes each record's {@code toString()} as a line to {@code path}: the file itself at
     * parallelism 1, else a directory of files {@code 1..n}, one per subtask (see
     * {@link TextOutputSinkFunction}). Not fault tolerant.
     *
     * @throws IllegalArgumentException if {@code path} is blank or exists already (Flink's default
     *     NO_OVERWRITE mode refuses it too, when the job starts)
     * @deprecated as in Flink 1.20: use {@link #sinkTo} with a {@code FileSink}
     */
    @Deprecated
    public DataStreamSink<T> writeAsText(String path) {
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("writeAsText needs an output path, not '" + path + "'");
        }
        java.nio.file.Path target = java.nio.file.Path.of(path.startsWith("file://") ? path.substring(7) : path);
        if (java.nio.file.Files.exists(target)) {
            throw new IllegalArgumentException("writeAsText: " + target + " already exists. Existing files and "
                    + "directories are not overwritten (Flink's NO_OVERWRITE mode); delete it or choose another path.");
        }
        return addSink(new TextOutputSinkFunction<>(path));
    }

    /**
     * As {@link #writeAsText(String)}, with what to do when {@code path} exists: {@code NO_OVERWRITE} refuses it
     * here, {@code OVERWRITE} replaces it when the job runs (each subtask rewrites its file; at parallelism 1 an
     * existing directory, at a higher one an existing file, gives way, and files of a wider earlier run go).
     */
    @Deprecated
    public DataStreamSink<T> writeAsText(String path, dev.runnel.core.fs.FileSystem.WriteMode writeMode) {
        if (writeMode == null || writeMode == dev.runnel.core.fs.FileSystem.WriteMode.NO_OVERWRITE) {
            return writeAsText(path);
        }
        if (path == null || path.isBlank()) {
            throw new IllegalArgumentException("writeAsText needs an output path, not '" + path + "'");
        }
        return addSink(new TextOutputSinkFunction<>(path, true));
    }

    public DataStreamSink<T> addSink(SinkFunction<T> sinkFunction) {
        return sink("Sink: Unnamed", new StreamSink<>(clean(sinkFunction)));
    }

    /**
     * Writes records with a {@link Sink}: a writer per subtask, flushed at each checkpoint and at the end of
     * input; a {@code SupportsCommitter} sink's output is committed when each checkpoint completes and at the
     * end of input (see {@code SinkWriterOperator}).
     */
    public DataStreamSink<T> sinkTo(Sink<T> sink) {
        Objects.requireNonNull(sink, "sink");
        return sink("Sink: " + sink.getClass().getSimpleName(), new SinkWriterOperator<>(sink));
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private DataStreamSink<T> sink(String name, OneInputStreamOperator<T, Object> operator) {
        SinkTransformation<T> t = new SinkTransformation<>(environment.nextId(), name,
                (dev.runnel.streaming.api.operators.StreamOperator) operator, transformation,
                Transformation.DEFAULT_PARALLELISM);
        configureKeyed(t);
        environment.addOperator(t);
        return new DataStreamSink<>(t);
    }

    /**
     * Runs the job and returns its records as they arrive; closing the iterator cancels the job if it
     * is still running. For tests and small jobs.
     */
    public CloseableIterator<T> executeAndCollect() throws Exception {
        return executeAndCollect("DataStream Collect");
    }

    public CloseableIterator<T> executeAndCollect(String jobName) throws Exception {
        return CollectStreamSink.executeAndCollect(this, jobName);
    }

    /** Runs the job and returns its first {@code limit} records (then cancels it). */
    public List<T> executeAndCollect(int limit) throws Exception {
        List<T> records = new ArrayList<>();
        try (CloseableIterator<T> it = executeAndCollect()) {
            while (records.size() < limit && it.hasNext()) {
                records.add(it.next());
            }
        }
        return records;
    }

    // ------------------------------------------------------------------ helpers

    /** The error a missing type came from, handed to the next transformation created. */
    private InvalidTypesException pendingTypeError;

    /** The function's output type, or null after remembering why it could not be found. */
    protected <R> TypeInformation<R> outputType(dev.runnel.api.common.functions.Function function,
            Class<?> functionClass, int outputIndex, TypeInformation<?>... inputTypes) {
        try {
            return TypeExtractor.getOutputType(function, functionClass, outputIndex, inputTypes);
        } catch (InvalidTypesException e) {
            pendingTypeError = e;
            return null;
        }
    }

    protected TypeInformation<T> typeOrNull() {
        return transformation.hasOutputType() ? transformation.getOutputType() : null;
    }

    /** Checks at build time that a user function can be shipped to subtasks. */
    protected static <F> F clean(F function) {
        Objects.requireNonNull(function, "function");
        dev.runnel.util.ClosureCleaner.clean(function);
        try {
            dev.runnel.util.InstantiationUtil.serialize(function, "function " + function.getClass().getName());
        } catch (IllegalArgumentException e) {
            Class<?> outer = enclosingInstanceType(function.getClass());
            if (outer != null && !java.io.Serializable.class.isAssignableFrom(outer)) {
                throw new IllegalArgumentException("The function " + function.getClass().getName() + " is an inner or "
                        + "anonymous class, so it holds a reference to the enclosing " + outer.getName()
                        + " object, which is not serializable. Declare the function as a static nested class, in a "
                        + "static method, or as a lambda that does not use instance members.", e);
            }
            throw e;
        }
        return function;
    }

    private static Class<?> enclosingInstanceType(Class<?> type) {
        for (java.lang.reflect.Field field : type.getDeclaredFields()) {
            if (field.isSynthetic() && field.getName().startsWith("this$")) {
                return field.getType();
            }
        }
        return null;
    }
}
