package dev.runnel.streaming.util;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.TaskInfo;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.configuration.Configuration;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.metrics.SimpleMetricGroup;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendFactory;
import dev.runnel.runtime.timers.ProcessingTimeService;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.OperatorConfig;
import dev.runnel.streaming.api.operators.Output;
import dev.runnel.streaming.api.operators.StreamOperator;
import dev.runnel.streaming.api.operators.StreamOperatorParameters;
import dev.runnel.streaming.api.operators.StreamTaskContext;
import dev.runnel.streaming.api.watermark.Watermark;
import dev.runnel.streaming.runtime.source.SourceCoordinator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.stream.Stream;

/**
 * What every operator test harness shares: the task the operator runs in (manual processing time, a
 * real state store, metrics, accumulators), the life cycle ({@link #setup()}, {@link #open()},
 * {@link #close()}) and the collected output. Subclasses add the inputs.
 *
 * <p>Output is kept as Flink's harness keeps it: {@link StreamRecord} copies and
 * {@link Watermark}s (of {@code dev.runnel.streaming.api.watermark}), in emission order. Single-threaded:
 * call everything from the test thread.
 *
 * @param <OUT> the operator's output type
 */
public abstract class AbstractStreamOperatorTestHarness<OUT> implements AutoCloseable {

    protected final StreamOperator<OUT> operator;
    private final OperatorConfig config;
    private final TaskInfo taskInfo;
    private final ExecutionConfig executionConfig = new ExecutionConfig();
    private final Configuration configuration = new Configuration();
    private final ManualProcessingTimeService time = new ManualProcessingTimeService(0);
    private final SimpleMetricGroup metrics = new SimpleMetricGroup("harness");
    private final Map<String, Accumulator<?, ?>> accumulators = new HashMap<>();
    private final ConcurrentLinkedQueue<Object> output = new ConcurrentLinkedQueue<>();
    private final Map<String, ConcurrentLinkedQueue<StreamRecord<?>>> sideOutputs = new HashMap<>();
    private final StateBackend stateBackend;
    private final File workingDirectory;
    private Collection<KeyedStateHandle> restoredState = List.of();
    private boolean setupCalled;
    private boolean initializeCalled;

    protected AbstractStreamOperatorTestHarness(StreamOperator<OUT> operator, OperatorConfig config,
            int parallelism, int subtaskIndex, StateBackend stateBackend) {
        this.operator = operator;
        this.config = config;
        this.taskInfo = new TaskInfo(config.name(), subtaskIndex, parallelism, config.maxParallelism(), 0);
        this.stateBackend = stateBackend != null ? stateBackend : configuredBackend("heap");
        try {
            this.workingDirectory = Files.createTempDirectory("runnel-harness-").toFile();
        } catch (IOException e) {
            throw new IllegalStateException("Cannot create a working directory for the harness: " + e, e);
        }
    }

    /** The configuration of a non-keyed operator in a harness. */
    static OperatorConfig unkeyedConfig(StreamOperator<?> operator) {
        return new OperatorConfig("harness-operator", operator.getClass().getSimpleName(), null, null, null, 128);
    }

    /** The store found under {@code name} on the classpath (e.g. "heap", "rocksdb"), or null. */
    public static StateBackend configuredBackend(String name) {
        for (StateBackendFactory factory : ServiceLoader.load(StateBackendFactory.class)) {
            if (factory.name().equals(name)) {
                return factory.createFromConfig(new Configuration());
            }
        }
        return null;
    }

    // ------------------------------------------------------------------ life cycle

    /** Connects the operator to the harness's task and output; {@link #open()} does it if needed. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void setup() {
        if (setupCalled) {
            throw new IllegalStateException("setup() was already called on this harness");
        }
        setupCalled = true;
        operator.setup(new StreamOperatorParameters(new Context(), config, new CollectingOutput()));
    }

    /** Restore keyed state from these snapshots (before {@link #open()}); sets up the operator if needed. */
    public void initializeState(Collection<KeyedStateHandle> snapshots) throws Exception {
        if (initializeCalled) {
            throw new IllegalStateException("initializeState must be called once, before open()");
        }
        this.restoredState = List.copyOf(snapshots);
        if (!setupCalled) {
            setup();
        }
        initializeCalled = true;
        operator.initializeState();
    }

    /** Initializes the operator with no state to restore. */
    public void initializeEmptyState() throws Exception {
        initializeState(List.of());
    }

    /** Sets up and initializes the operator if that was not done yet, then opens it. */
    public void open() throws Exception {
        if (!initializeCalled) {
            initializeEmptyState();
        }
        operator.open();
    }

    /** Closes the operator and deletes the harness's working files. */
    @Override
    public void close() throws Exception {
        try {
            operator.close();
        } finally {
            try (Stream<Path> files = Files.walk(workingDirectory.toPath())) {
                files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
            }
        }
    }

    // ------------------------------------------------------------------ time

    /** Advances processing time: fires processing-time timers due by {@code timestamp}. */
    public void setProcessingTime(long timestamp) throws Exception {
        time.advanceTo(timestamp);
    }

    public long getProcessingTime() {
        return time.getCurrentProcessingTime();
    }

    public ManualProcessingTimeService getProcessingTimeService() {
        return time;
    }

    /** Event-time timers queued in the operator, over all keys. */
    public int numEventTimeTimers() {
        return abstractOperator("count timers").numEventTimeTimers();
    }

    /** Processing-time timers queued in the operator, over all keys. */
    public int numProcessingTimeTimers() {
        return abstractOperator("count timers").numProcessingTimeTimers();
    }

    /** Entries over all keyed states, keys and namespaces of the operator (heap store only, as in Flink). */
    public int numKeyedStateEntries() {
        KeyedStateBackend<Object> backend = abstractOperator("count keyed state").getKeyedStateBackend();
        if (backend == null) {
            throw new UnsupportedOperationException("Operator '" + operator.getOperatorName()
                    + "' has no keyed state: use a keyed harness (KeyedOneInputStreamOperatorTestHarness)");
        }
        return backend.numKeyValueStateEntries();
    }

    // ------------------------------------------------------------------ output

    /** Everything emitted so far: {@link StreamRecord}s and {@link Watermark}s, in order (mutable). */
    public ConcurrentLinkedQueue<Object> getOutput() {
        return output;
    }

    /** The records emitted so far, without watermarks. */
    @SuppressWarnings("unchecked")
    public List<StreamRecord<? extends OUT>> extractOutputStreamRecords() {
        List<StreamRecord<? extends OUT>> records = new ArrayList<>();
        for (Object o : output) {
            if (o instanceof StreamRecord<?> r) {
                records.add((StreamRecord<OUT>) r);
            }
        }
        return records;
    }

    /** The values of the records emitted so far. */
    public List<OUT> extractOutputValues() {
        List<OUT> values = new ArrayList<>();
        for (StreamRecord<? extends OUT> r : extractOutputStreamRecords()) {
            values.add(r.getValue());
        }
        return values;
    }

    /** The watermarks emitted so far. */
    public List<Watermark> getWatermarks() {
        return output.stream().filter(o -> o instanceof Watermark).map(o -> (Watermark) o).toList();
    }

    /** The records emitted to side output {@code tag}, or null when there are none (as in Flink). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public <X> ConcurrentLinkedQueue<StreamRecord<X>> getSideOutput(OutputTag<X> tag) {
        return (ConcurrentLinkedQueue) sideOutputs.get(tag.getId());
    }

    public void clearOutput() {
        output.clear();
        sideOutputs.clear();
    }

    // ------------------------------------------------------------------ access

    public ExecutionConfig getExecutionConfig() {
        return executionConfig;
    }

    public MetricGroup getMetricGroup() {
        return metrics;
    }

    public Map<String, Accumulator<?, ?>> getAccumulators() {
        return accumulators;
    }

    public StreamOperator<OUT> getOperator() {
        return operator;
    }

    protected AbstractStreamOperator<?> abstractOperator(String what) {
        if (!(operator instanceof AbstractStreamOperator<?> abs)) {
            throw new UnsupportedOperationException("The harness can only " + what + " of an AbstractStreamOperator, not of "
                    + operator.getClass().getName());
        }
        return abs;
    }

    /** The harness's watermark as the operators take it. */
    static dev.runnel.api.common.eventtime.Watermark toOperatorWatermark(Watermark mark) {
        return new dev.runnel.api.common.eventtime.Watermark(mark.getTimestamp());
    }

    private final class CollectingOutput implements Output<OUT> {
        @Override
        public void collect(StreamRecord<OUT> record) {
            output.add(record.copy(record.getValue()));
        }

        @Override
        public <X> void collect(OutputTag<X> outputTag, StreamRecord<X> record) {
            sideOutputs.computeIfAbsent(outputTag.getId(), id -> new ConcurrentLinkedQueue<>())
                    .add(record.copy(record.getValue()));
        }

        @Override
        public void emitWatermark(dev.runnel.api.common.eventtime.Watermark watermark) {
            output.add(new Watermark(watermark.getTimestamp()));
        }

        @Override
        public void emitWatermarkStatus(boolean idle) {}

        @Override
        public void close() {}
    }

    private final class Context implements StreamTaskContext {
        @Override
        public String getJobName() {
            return "test-harness";
        }

        @Override
        public TaskInfo getTaskInfo() {
            return taskInfo;
        }

        @Override
        public ExecutionConfig getExecutionConfig() {
            return executionConfig;
        }

        @Override
        public Configuration getConfiguration() {
            return configuration;
        }

        @Override
        public ProcessingTimeService getProcessingTimeService() {
            return time;
        }

        @Override
        public MetricGroup getMetricGroup() {
            return metrics;
        }

        @Override
        public Map<String, Accumulator<?, ?>> getAccumulators() {
            return accumulators;
        }

        @Override
        public StateBackend getStateBackend() {
            if (stateBackend == null) {
                throw new IllegalStateException("No state backend: put runtime-state on the test classpath or pass one");
            }
            return stateBackend;
        }

        @Override
        public List<File> getLocalDirectories() {
            return List.of(workingDirectory);
        }

        @Override
        public Collection<KeyedStateHandle> getRestoredKeyedState(String operatorId) {
            return restoredState;
        }

        @Override
        public SourceCoordinator<?, ?> getSourceCoordinator(String operatorId) {
            throw new UnsupportedOperationException("The operator harness does not run sources");
        }

        @Override
        public void execute(ThrowingRunnable action, String description) {
            try {
                action.run();
            } catch (Exception e) {
                throw new IllegalStateException("Mail '" + description + "' failed: " + e, e);
            }
        }
    }
}
