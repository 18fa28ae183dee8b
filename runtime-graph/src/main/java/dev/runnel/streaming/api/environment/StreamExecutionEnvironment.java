package dev.runnel.streaming.api.environment;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.RuntimeExecutionMode;
import dev.runnel.api.common.restartstrategy.RestartStrategies;
import dev.runnel.configuration.CheckpointingOptions;
import dev.runnel.configuration.ExecutionOptions;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.lib.FromElementsSource;
import dev.runnel.api.connector.source.lib.NumberSequenceSource;
import dev.runnel.api.java.tuple.Tuple;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.api.java.typeutils.ResultTypeQueryable;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.CoreOptions;
import dev.runnel.configuration.PipelineOptions;
import dev.runnel.core.execution.CheckpointingMode;
import dev.runnel.core.execution.JobClient;
import dev.runnel.core.execution.JobExecutionException;
import dev.runnel.core.fs.Path;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.minicluster.EmbeddedRuntime;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.api.datastream.DataStreamSource;
import dev.runnel.connector.file.src.FileSource;
import dev.runnel.connector.file.src.reader.TextLineInputFormat;
import dev.runnel.streaming.api.functions.source.FromIteratorFunction;
import dev.runnel.streaming.api.functions.source.ParallelSourceFunction;
import dev.runnel.streaming.api.functions.source.SocketTextStreamSource;
import dev.runnel.streaming.api.functions.source.SourceFunction;
import dev.runnel.streaming.api.operators.StreamSource;
import dev.runnel.streaming.api.graph.ExecutionPlan;
import dev.runnel.streaming.api.graph.StreamGraph;
import dev.runnel.streaming.api.graph.StreamGraphGenerator;
import dev.runnel.streaming.api.graph.StreamingJobGraphGenerator;
import dev.runnel.streaming.api.transformations.Transformation;
import dev.runnel.streaming.runtime.source.SourceOperator;
import dev.runnel.streaming.api.transformations.PhysicalTransformation;
import java.net.URI;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ExecutionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a streaming job is assembled and started, with Flink's API: create sources, apply operators,
 * then {@link #execute(String)}. By default jobs run on the embedded runtime in this JVM with
 * parallelism = the number of CPU cores.
 *
 * <pre>{@code
 * StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
 * env.fromElements("a b", "b c")
 *    .flatMap((String line, Collector<String> out) -> { for (String w : line.split(" ")) out.collect(w); })
 *    .returns(Types.STRING)
 *    .print();
 * env.execute("words");
 * }</pre>
 *
 * <p>It is long because it is Flink's facade, kept method for method so that jobs port by their
 * imports alone: each method is a thin entry point that checks its arguments and hands over to a
 * source, the graph generator or the runtime.
 *
 * <p>Not thread-safe: build a job from one thread.
 */
public class StreamExecutionEnvironment {

    private static final Logger LOG = LoggerFactory.getLogger(StreamExecutionEnvironment.class);

    /** Flink's default buffer timeout: partially filled output buffers are sent after 100 ms. */
    public static final long DEFAULT_BUFFER_TIMEOUT_MS = 100;

    /** The name of a job executed without one. */
    public static final String DEFAULT_JOB_NAME = "Runnel Streaming Job";

    private final ExecutionConfig config = new ExecutionConfig();
    private final Configuration configuration;
    private final List<Transformation<?>> transformations = new ArrayList<>();
    private int parallelism;
    private int maxParallelism = -1;
    private long bufferTimeout = DEFAULT_BUFFER_TIMEOUT_MS;
    private boolean chainingEnabled = true;
    private StateBackend stateBackend;
    /** A view of {@link #configuration}: checkpoint settings live only there, so the job graph carries them. */
    private final CheckpointConfig checkpointConfig;
    private int nextId;

    /** Set while a test cluster is the context (see {@link #initializeContextEnvironment}). */
    private static volatile StreamExecutionEnvironmentFactory contextEnvironmentFactory;

    protected StreamExecutionEnvironment(Configuration configuration, int parallelism) {
        this.configuration = configuration.copy();
        this.checkpointConfig = new CheckpointConfig(this.configuration);
        setParallelism(parallelism);
        applyPipelineOptions(this.configuration);
    }

    /**
     * An environment on the embedded runtime with an empty configuration, as Flink's public
     * constructor; the same as {@link #getExecutionEnvironment()}.
     */
    public StreamExecutionEnvironment() {
        this(new Configuration());
    }

    /**
     * An environment on the embedded runtime with {@code configuration} (copied): the default
     * parallelism is {@code parallelism.default} if set, else the number of CPU cores; the
     * {@link PipelineOptions} it sets are taken over as by {@link #configure(Configuration)}.
     */
    public StreamExecutionEnvironment(Configuration configuration) {
        this(Objects.requireNonNull(configuration, "configuration"), defaultParallelism(configuration));
    }

    /** The environment of the context the program runs in: the embedded runtime when run from main(). */
    public static StreamExecutionEnvironment getExecutionEnvironment() {
        return getExecutionEnvironment(new Configuration());
    }

    /**
     * Like {@link #getExecutionEnvironment()}, with configuration (e.g. {@code state.backend: rocksdb},
     * {@code parallelism.default: 4}).
     */
    public static StreamExecutionEnvironment getExecutionEnvironment(Configuration configuration) {
        StreamExecutionEnvironmentFactory factory = contextEnvironmentFactory;
        return factory != null ? factory.createExecutionEnvironment(configuration)
                : new StreamExecutionEnvironment(configuration);
    }

    /**
     * Makes {@link #getExecutionEnvironment()} create its environments with {@code factory} until
     * {@link #resetContextEnvironment()}, in every thread (the test cluster rules use this).
     */
    protected static void initializeContextEnvironment(StreamExecutionEnvironmentFactory factory) {
        contextEnvironmentFactory = Objects.requireNonNull(factory, "factory");
    }

    /** {@link #getExecutionEnvironment()} creates plain embedded environments again. */
    protected static void resetContextEnvironment() {
        contextEnvironmentFactory = null;
    }

    private static int defaultParallelism(Configuration configuration) {
        return configuration.contains(CoreOptions.DEFAULT_PARALLELISM)
                ? configuration.get(CoreOptions.DEFAULT_PARALLELISM)
                : Runtime.getRuntime().availableProcessors();
    }

    /** An environment on the embedded runtime with the given default parallelism. */
    public static StreamExecutionEnvironment createLocalEnvironment(int parallelism) {
        return new StreamExecutionEnvironment(new Configuration(), parallelism);
    }

    public static StreamExecutionEnvironment createLocalEnvironment(int parallelism, Configuration configuration) {
        return new StreamExecutionEnvironment(configuration, parallelism);
    }

    public static StreamExecutionEnvironment createLocalEnvironment() {
        return getExecutionEnvironment();
    }

    // ------------------------------------------------------------------ settings

    public ExecutionConfig getConfig() {
        return config;
    }

    /** The job's configuration (state backend, shuffle, memory); mutable until execution. */
    public Configuration getConfiguration() {
        return configuration;
    }

    /**
     * How the job runs: STREAMING (default), BATCH (bounded input; keyed aggregations and windows
     * emit only final results) or AUTOMATIC (BATCH when every source is bounded). The same as setting
     * {@code execution.runtime-mode}; see {@link RuntimeExecutionMode}.
     */
    public StreamExecutionEnvironment setRuntimeMode(RuntimeExecutionMode executionMode) {
        configuration.set(ExecutionOptions.RUNTIME_MODE, Objects.requireNonNull(executionMode, "executionMode"));
        return this;
    }

    public StreamExecutionEnvironment setParallelism(int parallelism) {
        if (parallelism < 1) {
            throw new IllegalArgumentException("The parallelism must be at least 1, was " + parallelism);
        }
        this.parallelism = parallelism;
        return this;
    }

    public int getParallelism() {
        return parallelism;
    }

    /** The default max parallelism (number of key groups) of keyed operators; at most 32768. */
    public StreamExecutionEnvironment setMaxParallelism(int maxParallelism) {
        if (!isValidMaxParallelism(maxParallelism)) {
            throw new IllegalArgumentException("The max parallelism must be in [1, "
                    + KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM + "], was " + maxParallelism);
        }
        this.maxParallelism = maxParallelism;
        return this;
    }

    private static boolean isValidMaxParallelism(int maxParallelism) {
        return maxParallelism >= 1 && maxParallelism <= KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM;
    }

    public int getMaxParallelism() {
        return maxParallelism;
    }

    /**
     * How long output may wait in a partially filled batch: 0 sends every record at once (lowest
     * latency), -1 only full batches, default 100 ms.
     */
    public StreamExecutionEnvironment setBufferTimeout(long timeoutMillis) {
        if (timeoutMillis < -1) {
            throw new IllegalArgumentException("The buffer timeout must be >= -1, was " + timeoutMillis);
        }
        this.bufferTimeout = timeoutMillis;
        return this;
    }

    public long getBufferTimeout() {
        return bufferTimeout;
    }

    /** Runs every operator as a task of its own (for debugging and measurement). */
    public StreamExecutionEnvironment disableOperatorChaining() {
        this.chainingEnabled = false;
        return this;
    }

    public boolean isChainingEnabled() {
        return chainingEnabled;
    }

    /** Keeps keyed state in {@code backend} (e.g. {@code new EmbeddedRocksDBStateBackend()}). */
    public StreamExecutionEnvironment setStateBackend(StateBackend backend) {
        this.stateBackend = Objects.requireNonNull(backend, "backend");
        return this;
    }

    public StateBackend getStateBackend() {
        return stateBackend;
    }

    /**
     * Takes periodic checkpoints every {@code intervalMillis} (at least 10 ms), exactly once by default; a
     * failed task then restarts the job from the latest one (see the restart strategy). The interval goes into
     * the job's configuration as {@code execution.checkpointing.interval}, as in Flink, where the engine and
     * the state backends see it (the RocksDB store then keeps native snapshots cheap, see
     * {@code state.backend.rocksdb.memtable.inplace-update-support}). The same as
     * {@code getCheckpointConfig().setCheckpointInterval(intervalMillis)}.
     */
    public StreamExecutionEnvironment enableCheckpointing(long intervalMillis) {
        checkpointConfig.setCheckpointInterval(intervalMillis);
        return this;
    }

    /** Like {@link #enableCheckpointing(long)}, with the consistency of the checkpoints. */
    public StreamExecutionEnvironment enableCheckpointing(long intervalMillis, CheckpointingMode mode) {
        checkpointConfig.setCheckpointingConsistencyMode(mode);
        checkpointConfig.setCheckpointInterval(intervalMillis);
        return this;
    }

    /** @deprecated use {@link #enableCheckpointing(long, CheckpointingMode)} with Flink 1.20's mode. */
    @Deprecated
    public StreamExecutionEnvironment enableCheckpointing(long intervalMillis,
            dev.runnel.streaming.api.CheckpointingMode mode) {
        checkpointConfig.setCheckpointingMode(mode);
        checkpointConfig.setCheckpointInterval(intervalMillis);
        return this;
    }

    /** The job's checkpoint settings, read from and written to {@link #getConfiguration()}. */
    public CheckpointConfig getCheckpointConfig() {
        return checkpointConfig;
    }

    /** Milliseconds between checkpoints; -1 when checkpointing is disabled. */
    public long getCheckpointInterval() {
        return checkpointConfig.getCheckpointInterval();
    }

    public CheckpointingMode getCheckpointingConsistencyMode() {
        return checkpointConfig.getCheckpointingConsistencyMode();
    }

    /** @deprecated use {@link #getCheckpointingConsistencyMode()}. */
    @Deprecated
    public dev.runnel.streaming.api.CheckpointingMode getCheckpointingMode() {
        return checkpointConfig.getCheckpointingMode();
    }

    /**
     * How the job restarts after a failure; writes the {@code restart-strategy.*} keys into the job's
     * configuration, replacing any there. Without a strategy, a job that checkpoints restarts with
     * exponential delay and one that does not fails on its first failure (Flink's rule).
     *
     * @deprecated as in Flink 1.20, set {@link dev.runnel.configuration.RestartStrategyOptions} in the
     *     configuration instead; kept because most jobs still call it
     */
    @Deprecated
    public void setRestartStrategy(RestartStrategies.RestartStrategyConfiguration restartStrategyConfiguration) {
        Objects.requireNonNull(restartStrategyConfiguration, "restartStrategyConfiguration").writeTo(configuration);
    }

    /**
     * The restart strategy the job's configuration names, or {@link RestartStrategies#fallBackRestart()}
     * when it names none.
     *
     * @deprecated see {@link #setRestartStrategy}
     */
    @Deprecated
    public RestartStrategies.RestartStrategyConfiguration getRestartStrategy() {
        return RestartStrategies.fromConfiguration(configuration).orElseGet(RestartStrategies::fallBackRestart);
    }

    /**
     * The directory savepoints of this job go to when none is given
     * ({@code execution.checkpointing.savepoint-dir}).
     *
     * @deprecated as in Flink 1.20, set {@link CheckpointingOptions#SAVEPOINT_DIRECTORY} instead
     */
    @Deprecated
    public StreamExecutionEnvironment setDefaultSavepointDirectory(String savepointDirectory) {
        Objects.requireNonNull(savepointDirectory, "savepointDirectory");
        configuration.set(CheckpointingOptions.SAVEPOINT_DIRECTORY, savepointDirectory);
        return this;
    }

    /** @deprecated see {@link #setDefaultSavepointDirectory(String)}. */
    @Deprecated
    public StreamExecutionEnvironment setDefaultSavepointDirectory(URI savepointDirectory) {
        return setDefaultSavepointDirectory(Objects.requireNonNull(savepointDirectory, "savepointDirectory")
                .toString());
    }

    /** @deprecated see {@link #setDefaultSavepointDirectory(String)}. */
    @Deprecated
    public StreamExecutionEnvironment setDefaultSavepointDirectory(Path savepointDirectory) {
        return setDefaultSavepointDirectory(Objects.requireNonNull(savepointDirectory, "savepointDirectory")
                .toUri());
    }

    /** The default savepoint directory, or null if none is configured. */
    public Path getDefaultSavepointDirectory() {
        String dir = configuration.get(CheckpointingOptions.SAVEPOINT_DIRECTORY);
        return dir == null ? null : new Path(dir);
    }

    /**
     * Applies {@code configuration} to this environment, as Flink's {@code configure}: every key it sets is
     * taken over into the job's configuration (checkpointing, restart strategy, state backend, runtime mode,
     * ...), replacing the value there; {@code parallelism.default} also becomes the environment's
     * parallelism, and the {@link PipelineOptions} (object reuse, watermark interval, max parallelism,
     * chaining, generic types) its settings. Keys it does not set are left as they are.
     */
    public void configure(Configuration configuration) {
        Objects.requireNonNull(configuration, "configuration");
        this.configuration.addAll(configuration);
        if (configuration.contains(CoreOptions.DEFAULT_PARALLELISM)) {
            setParallelism(configuration.get(CoreOptions.DEFAULT_PARALLELISM));
        }
        applyPipelineOptions(configuration);
    }

    /**
     * Takes over the {@link PipelineOptions} that {@code source} sets into this environment and its
     * {@link ExecutionConfig}, as Flink does with its configuration; options it does not set leave the settings
     * as they are. A value out of range fails here, naming its key.
     */
    private void applyPipelineOptions(Configuration source) {
        source.getOptional(PipelineOptions.OBJECT_REUSE).ifPresent(reuse -> {
            if (reuse) {
                config.enableObjectReuse();
            } else {
                config.disableObjectReuse();
            }
        });
        source.getOptional(PipelineOptions.AUTO_WATERMARK_INTERVAL).ifPresent(interval -> {
            if (interval.isNegative()) {
                throw new IllegalArgumentException(PipelineOptions.AUTO_WATERMARK_INTERVAL.key()
                        + " must be 0 (off) or positive, got " + interval);
            }
            config.setAutoWatermarkInterval(interval.toMillis());
        });
        source.getOptional(PipelineOptions.MAX_PARALLELISM).ifPresent(max -> {
            if (max != -1 && !isValidMaxParallelism(max)) {
                throw new IllegalArgumentException(PipelineOptions.MAX_PARALLELISM.key() + " must be in [1, "
                        + KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM
                        + "] or -1 (derived from the parallelism), got " + max);
            }
            maxParallelism = max;
        });
        source.getOptional(PipelineOptions.OPERATOR_CHAINING).ifPresent(chaining -> chainingEnabled = chaining);
        source.getOptional(PipelineOptions.GENERIC_TYPES).ifPresent(allowed -> {
            if (allowed) {
                config.enableGenericTypes();
            } else {
                config.disableGenericTypes();
            }
        });
    }

    /** The name of a job the program runs without one: {@code pipeline.name} if set, else {@link #DEFAULT_JOB_NAME}. */
    private String defaultJobName() {
        return configuration.getOptional(PipelineOptions.NAME).orElse(DEFAULT_JOB_NAME);
    }

    /** Like {@link #configure(Configuration)}; Runnel loads no classes by name from configuration. */
    public void configure(Configuration configuration, ClassLoader classLoader) {
        configure(configuration);
    }

    // ------------------------------------------------------------------ sources

    /** A stream of the given elements (parallelism 1); their type is taken from the first element. */
    @SafeVarargs
    public final <OUT> DataStreamSource<OUT> fromElements(OUT... data) {
        if (data == null || data.length == 0) {
            throw new IllegalArgumentException("fromElements needs at least one element; "
                    + "use fromElements(Class, ...) or fromCollection(collection, type) for an empty stream.");
        }
        return fromCollection(Arrays.asList(data), typeOfElements(data));
    }

    /** A stream of the given elements of type {@code type} (parallelism 1). */
    @SafeVarargs
    public final <OUT> DataStreamSource<OUT> fromElements(Class<OUT> type, OUT... data) {
        return fromCollection(Arrays.asList(data), TypeInformation.of(type));
    }

    /** A stream of the collection's elements (parallelism 1); the type is taken from the first element. */
    public <OUT> DataStreamSource<OUT> fromCollection(Collection<OUT> data) {
        if (data == null || data.isEmpty()) {
            throw new IllegalArgumentException("fromCollection needs a non-empty collection to infer the type; "
                    + "use fromCollection(collection, type) for an empty one.");
        }
        @SuppressWarnings("unchecked")
        OUT[] elements = (OUT[]) data.toArray();
        return fromCollection(data, typeOfElements(elements));
    }

    public <OUT> DataStreamSource<OUT> fromCollection(Collection<OUT> data, TypeInformation<OUT> type) {
        Objects.requireNonNull(data, "data");
        for (OUT element : data) {
            if (element == null) {
                throw new IllegalArgumentException("fromCollection/fromElements: the elements must not be null");
            }
        }
        DataStreamSource<OUT> source = fromSource(
                new FromElementsSource<>(new ArrayList<>(data), type.createSerializer(config.getSerializerConfig())),
                WatermarkStrategy.noWatermarks(), "Collection Source", type);
        source.setParallelism(1);
        return source;
    }

    /**
     * The elements {@code data} returns, in order, with parallelism 1 (Flink's "Collection Source");
     * an iterator that never ends gives an unbounded stream. The iterator is shipped with the job, so
     * it must be {@link java.io.Serializable}; see {@link FromIteratorFunction}.
     *
     * @throws IllegalArgumentException if the iterator is not serializable
     */
    public <OUT> DataStreamSource<OUT> fromCollection(Iterator<OUT> data, TypeInformation<OUT> type) {
        Objects.requireNonNull(data, "The iterator must not be null");
        Objects.requireNonNull(type, "type");
        if (!(data instanceof java.io.Serializable)) {
            throw new IllegalArgumentException("fromCollection(iterator, type): the iterator ("
                    + data.getClass().getName() + ") must be serializable; it is shipped with the job.");
        }
        return addSource(new FromIteratorFunction<>(data), "Collection Source", type);
    }

    /** {@link #fromCollection(Iterator, TypeInformation)} with the type of {@code type}. */
    public <OUT> DataStreamSource<OUT> fromCollection(Iterator<OUT> data, Class<OUT> type) {
        return fromCollection(data, TypeInformation.of(type));
    }

    /**
     * The lines of the file or directory (all its files, see {@link FileSource}) at {@code filePath},
     * read once (UTF-8); a bounded stream named "Custom File Source".
     *
     * @deprecated as in Flink 1.20: use {@link #fromSource} with
     *     {@code FileSource.forRecordStreamFormat(new TextLineInputFormat(), path)}
     */
    @Deprecated
    public DataStreamSource<String> readTextFile(String filePath) {
        return readTextFile(filePath, "UTF-8");
    }

    /**
     * {@link #readTextFile(String)} decoding with {@code charsetName}.
     *
     * @throws IllegalArgumentException if the path is blank
     * @deprecated as in Flink 1.20: use {@link #fromSource} with a {@code FileSource}
     */
    @Deprecated
    public DataStreamSource<String> readTextFile(String filePath, String charsetName) {
        if (filePath == null || filePath.isBlank()) {
            throw new IllegalArgumentException("The file path must not be null or blank.");
        }
        FileSource<String> source = FileSource.forRecordStreamFormat(new TextLineInputFormat(charsetName),
                new dev.runnel.core.fs.Path(filePath)).build();
        return fromSource(source, WatermarkStrategy.noWatermarks(), "Custom File Source", Types.STRING);
    }

    /**
     * A stream of the given elements, in order, with parallelism 1; their type is taken from the
     * elements (their common class; for tuples, the first element's field types). Flink 1.19's
     * replacement of {@code fromElements}.
     *
     * @throws IllegalArgumentException if there are no elements or one is null
     */
    @SafeVarargs
    public final <OUT> DataStreamSource<OUT> fromData(OUT... data) {
        if (data == null || data.length == 0) {
            throw new IllegalArgumentException("fromData needs at least one element as argument; for an empty "
                    + "stream use fromData(Collection, TypeInformation) or fromData(TypeInformation, ...).");
        }
        return fromData(Arrays.asList(data), typeOfElements(data));
    }

    /** A stream of the given elements of type {@code typeInfo}, in order, with parallelism 1. */
    @SafeVarargs
    public final <OUT> DataStreamSource<OUT> fromData(TypeInformation<OUT> typeInfo, OUT... data) {
        Objects.requireNonNull(data, "data");
        return fromData(Arrays.asList(data), typeInfo);
    }

    /** A stream of the given elements of class {@code type} (e.g. a common supertype), with parallelism 1. */
    @SafeVarargs
    public final <OUT> DataStreamSource<OUT> fromData(Class<OUT> type, OUT... data) {
        Objects.requireNonNull(type, "type");
        return fromData(TypeInformation.of(type), data);
    }

    /**
     * A stream of the collection's elements, in iteration order, with parallelism 1; the type is taken
     * from the elements.
     *
     * @throws IllegalArgumentException if the collection is empty or holds null
     */
    public <OUT> DataStreamSource<OUT> fromData(Collection<OUT> data) {
        if (data == null || data.isEmpty()) {
            throw new IllegalArgumentException("fromData needs a non-empty collection to infer the type; "
                    + "use fromData(collection, typeInfo) for an empty one.");
        }
        @SuppressWarnings("unchecked")
        OUT[] elements = (OUT[]) data.toArray();
        return fromData(data, typeOfElements(elements));
    }

    /** A stream of the collection's elements of type {@code typeInfo}, with parallelism 1; may be empty. */
    public <OUT> DataStreamSource<OUT> fromData(Collection<OUT> data, TypeInformation<OUT> typeInfo) {
        Objects.requireNonNull(typeInfo, "typeInfo");
        return fromCollection(data, typeInfo);
    }

    /**
     * The text a server socket sends, split into records at {@code delimiter}: the source connects to
     * {@code hostname:port} as a client and, when the server closes the connection, reconnects every
     * 500 ms until it has connected {@code maxRetry} times ({@code 0}: once, {@code -1}: forever);
     * then it ends. Parallelism 1; not fault tolerant. See {@link SocketTextStreamSource}.
     *
     * @throws IllegalArgumentException if the port is not in 1..65535, the delimiter is empty, or
     *     {@code maxRetry} is below -1
     */
    public DataStreamSource<String> socketTextStream(String hostname, int port, String delimiter, long maxRetry) {
        DataStreamSource<String> source = fromSource(new SocketTextStreamSource(hostname, port, delimiter, maxRetry),
                WatermarkStrategy.noWatermarks(), "Socket Stream", Types.STRING);
        source.setParallelism(1);
        return source;
    }

    /** {@link #socketTextStream(String, int, String, long)} without reconnecting. */
    public DataStreamSource<String> socketTextStream(String hostname, int port, String delimiter) {
        return socketTextStream(hostname, port, delimiter, 0);
    }

    /** The lines ({@code "\n"}, a preceding {@code '\r'} dropped) a server socket sends; no reconnecting. */
    public DataStreamSource<String> socketTextStream(String hostname, int port) {
        return socketTextStream(hostname, port, "\n");
    }

    /** @deprecated use {@link #socketTextStream(String, int, String, long)} */
    @Deprecated
    public DataStreamSource<String> socketTextStream(String hostname, int port, char delimiter, long maxRetry) {
        return socketTextStream(hostname, port, String.valueOf(delimiter), maxRetry);
    }

    /** @deprecated use {@link #socketTextStream(String, int, String)} */
    @Deprecated
    public DataStreamSource<String> socketTextStream(String hostname, int port, char delimiter) {
        return socketTextStream(hostname, port, delimiter, 0);
    }

    /** The numbers {@code from..to} (inclusive), split across the parallel source subtasks. */
    public DataStreamSource<Long> fromSequence(long from, long to) {
        if (from > to) {
            throw new IllegalArgumentException("fromSequence: 'from' (" + from + ") must not be greater than 'to' (" + to + ")");
        }
        return fromSource(new NumberSequenceSource(from, to), WatermarkStrategy.noWatermarks(), "Sequence Source",
                Types.LONG);
    }

    /** A stream read by {@code source}; the record type is taken from the source. */
    public <OUT> DataStreamSource<OUT> fromSource(Source<OUT, ?, ?> source, WatermarkStrategy<OUT> watermarkStrategy,
            String sourceName) {
        return fromSource(source, watermarkStrategy, sourceName, sourceOutputType(source, sourceName));
    }

    public <OUT> DataStreamSource<OUT> fromSource(Source<OUT, ?, ?> source, WatermarkStrategy<OUT> watermarkStrategy,
            String sourceName, TypeInformation<OUT> type) {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(watermarkStrategy, "watermarkStrategy");
        PhysicalTransformation<OUT> t = new PhysicalTransformation<>(nextId(), sourceName,
                new SourceOperator<>(source, watermarkStrategy), type, Transformation.DEFAULT_PARALLELISM, List.of());
        addOperator(t);
        return new DataStreamSource<>(this, t);
    }

    /**
     * A stream produced by a legacy {@link SourceFunction}, named "Custom Source"; the record type is
     * taken from the function. A function that is not a {@link ParallelSourceFunction} runs with
     * parallelism 1. See {@link StreamSource} for how it runs.
     */
    public <OUT> DataStreamSource<OUT> addSource(SourceFunction<OUT> function) {
        return addSource(function, "Custom Source");
    }

    public <OUT> DataStreamSource<OUT> addSource(SourceFunction<OUT> function, String sourceName) {
        return addSource(function, sourceName, null);
    }

    public <OUT> DataStreamSource<OUT> addSource(SourceFunction<OUT> function, TypeInformation<OUT> typeInfo) {
        return addSource(function, "Custom Source", typeInfo);
    }

    /** Like {@link #addSource(SourceFunction)}, named {@code sourceName}, with records of type {@code typeInfo}
     * (null: taken from the function). */
    public <OUT> DataStreamSource<OUT> addSource(SourceFunction<OUT> function, String sourceName,
            TypeInformation<OUT> typeInfo) {
        Objects.requireNonNull(function, "function");
        Objects.requireNonNull(sourceName, "sourceName");
        TypeInformation<OUT> type = typeInfo != null ? typeInfo : sourceFunctionType(function, sourceName);
        dev.runnel.util.ClosureCleaner.clean(function);
        PhysicalTransformation<OUT> t = new PhysicalTransformation<>(nextId(), sourceName, new StreamSource<>(function),
                type, Transformation.DEFAULT_PARALLELISM, List.of());
        addOperator(t);
        return new DataStreamSource<>(this, t, function instanceof ParallelSourceFunction<?>);
    }

    @SuppressWarnings("unchecked")
    private static <OUT> TypeInformation<OUT> sourceFunctionType(SourceFunction<OUT> function, String sourceName) {
        if (function instanceof ResultTypeQueryable<?> queryable) {
            return (TypeInformation<OUT>) queryable.getProducedType();
        }
        try {
            return (TypeInformation<OUT>) TypeExtractor.createTypeInfo(SourceFunction.class, function.getClass(), 0);
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException("The record type of source '" + sourceName + "' cannot be determined "
                    + "from its SourceFunction: " + e.getMessage()
                    + " Pass it: addSource(function, name, Types.STRING).", e);
        }
    }

    // ------------------------------------------------------------------ execution

    /** Runs the job and waits for it; rethrows its failure. */
    public JobExecutionResult execute() throws Exception {
        return execute(defaultJobName());
    }

    public JobExecutionResult execute(String jobName) throws Exception {
        return waitFor(executeAsync(jobName));
    }

    private static JobExecutionResult waitFor(JobClient client) throws Exception {
        try {
            return client.getJobExecutionResult().get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof JobExecutionException failure) {
                throw failure;
            }
            throw e;
        } catch (InterruptedException e) {
            client.cancel();
            Thread.currentThread().interrupt();
            throw e;
        }
    }

    /** Runs the job {@code streamGraph} describes (from {@link #getStreamGraph()}) and waits for it. */
    public JobExecutionResult execute(StreamGraph streamGraph) throws Exception {
        return waitFor(executeAsync(streamGraph));
    }

    /**
     * Starts the job and returns a client to follow or cancel it. Goes through {@link #executeAsync(StreamGraph)},
     * as in Flink, so an environment that runs jobs elsewhere (the CLI's, on a cluster) overrides that one method.
     */
    public JobClient executeAsync(String jobName) {
        StreamGraph streamGraph = getStreamGraph(jobName);
        transformations.clear();
        return executeAsync(streamGraph);
    }

    /** Starts the job {@code streamGraph} describes and returns a client to follow or cancel it. */
    public JobClient executeAsync(StreamGraph streamGraph) {
        Objects.requireNonNull(streamGraph, "streamGraph");
        return submit(streamGraph.getJobGraph());
    }

    private JobClient submit(JobGraph jobGraph) {
        return EmbeddedRuntime.submit(jobGraph, configuration);
    }

    /** The job's plan as JSON: job vertices (operator chains) and the edges between them. */
    public String getExecutionPlan() {
        return ExecutionPlan.toJson(getJobGraph(defaultJobName()));
    }

    /**
     * The stream graph of everything defined so far, named by {@code pipeline.name} (else
     * {@code "Runnel Streaming Job"}), and forgets
     * those definitions (as Flink's {@code getStreamGraph()}): run it with {@link #execute(StreamGraph)},
     * or compile it with {@link StreamGraph#getJobGraph()}.
     */
    public StreamGraph getStreamGraph() {
        return getStreamGraph(true);
    }

    /** The stream graph of everything defined so far; forgets the definitions if {@code clearTransformations}. */
    public StreamGraph getStreamGraph(boolean clearTransformations) {
        StreamGraph graph = getStreamGraph(defaultJobName());
        if (clearTransformations) {
            transformations.clear();
        }
        return graph;
    }

    /** The stream graph of everything defined so far, named {@code jobName}; keeps the definitions. */
    public StreamGraph getStreamGraph(String jobName) {
        StreamGraph graph = new StreamGraph(jobName, config, configuration, stateBackend, bufferTimeout, chainingEnabled);
        return new StreamGraphGenerator(graph, parallelism, maxParallelism).generate(transformations);
    }

    /** The compiled job graph of everything defined so far. */
    public JobGraph getJobGraph(String jobName) {
        return StreamingJobGraphGenerator.createJobGraph(getStreamGraph(jobName));
    }

    // ------------------------------------------------------------------ internal

    /** A fresh transformation id. */
    public int nextId() {
        return nextId++;
    }

    /** Records an operator of the job. */
    public void addOperator(Transformation<?> transformation) {
        transformations.add(Objects.requireNonNull(transformation));
    }

    /** Everything recorded so far. */
    public List<Transformation<?>> getTransformations() {
        return List.copyOf(transformations);
    }

    @SuppressWarnings("unchecked")
    private static <OUT> TypeInformation<OUT> sourceOutputType(Source<OUT, ?, ?> source, String sourceName) {
        if (source instanceof ResultTypeQueryable<?> queryable) {
            return (TypeInformation<OUT>) queryable.getProducedType();
        }
        try {
            return (TypeInformation<OUT>) TypeExtractor.createTypeInfo(Source.class, source.getClass(), 0);
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException("The record type of source '" + sourceName + "' cannot be determined: "
                    + e.getMessage() + " Pass it: fromSource(source, watermarkStrategy, name, Types.STRING).", e);
        }
    }

    /**
     * The type of the given elements: their common class, or for tuples (whose field types erasure
     * hides) the types of the first element's fields, as Flink infers them.
     */
    @SuppressWarnings("unchecked")
    private static <OUT> TypeInformation<OUT> typeOfElements(OUT[] elements) {
        Class<?> common = commonClass(elements);
        if (Tuple.class.isAssignableFrom(common) && common.getTypeParameters().length > 0) {
            return (TypeInformation<OUT>) typeOfObject(elements[0]);
        }
        return (TypeInformation<OUT>) TypeExtractor.createTypeInfo(common);
    }

    private static TypeInformation<?> typeOfObject(Object value) {
        if (value instanceof Tuple tuple && tuple.getClass().getTypeParameters().length > 0) {
            TypeInformation<?>[] fields = new TypeInformation<?>[tuple.getArity()];
            for (int i = 0; i < fields.length; i++) {
                Object field = tuple.getField(i);
                if (field == null) {
                    throw new IllegalArgumentException("Cannot infer the type of " + tuple + ": field " + i + " is null. "
                            + "Use fromCollection(collection, Types.TUPLE(...)) to give the type.");
                }
                fields[i] = typeOfObject(field);
            }
            return Types.TUPLE(fields);
        }
        return TypeExtractor.createTypeInfo(value.getClass());
    }

    private static Class<?> commonClass(Object[] elements) {
        Class<?> common = null;
        for (Object e : elements) {
            if (e == null) {
                throw new IllegalArgumentException("fromElements/fromCollection: the elements must not be null");
            }
            if (common == null) {
                common = e.getClass();
            } else {
                while (!common.isAssignableFrom(e.getClass())) {
                    common = common.getSuperclass();
                }
            }
        }
        return common;
    }
}
