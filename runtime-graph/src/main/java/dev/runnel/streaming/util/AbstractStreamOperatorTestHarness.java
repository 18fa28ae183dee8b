package dev.runnel.streaming.util;

import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.checkpoint.RoundRobinOperatorStateRepartitioner;
import dev.runnel.runtime.checkpoint.StateAssignmentOperation;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.TaskInfo;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.configuration.Configuration;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.metrics.SimpleMetricGroup;
import dev.runnel.runtime.state.KeyGroupRange;
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
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.source.SourceCoordinator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;
import java.io.ByteArrayOutputStream;
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
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.stream.Stream;

/**
 * What every operator test harness shares: each runs one operator without a cluster, in a task of its
 * own (manual processing time, a real state store, metrics, accumulators, a mailbox); tests feed
 * records, watermarks and processing time by hand and read what it emitted. Keyed operators get real
 * keyed state and timers from a real store (the heap store by default), so tests exercise the same
 * code as jobs. The subclasses add the inputs: {@link OneInputStreamOperatorTestHarness},
 * {@link TwoInputStreamOperatorTestHarness} and their keyed forms; {@link ProcessFunctionTestHarnesses}
 * builds them around process functions.
 *
 * <pre>{@code
 * var harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(fn), e -> e.id, Types.STRING);
 * harness.open();
 * harness.processElement(event, 10);
 * harness.processWatermark(100);          // fires event-time timers up to 100
 * assertThat(harness.extractOutputValues()).containsExactly(...);
 * }</pre>
 *
 * <p>Life cycle as in Flink: {@link #setup()}, {@link #initializeState} (or
 * {@link #initializeEmptyState()}), {@link #open()}, {@link #close()}; {@code open()} does the steps
 * not done yet.
 *
 * <p>Checkpoints as the task takes them: {@link #snapshot(long, long)} (the barrier's
 * {@code prepareSnapshotPreBarrier}, then the synchronous snapshot, written to memory), then
 * {@link #notifyOfCompletedCheckpoint} or {@link #notifyOfAbortedCheckpoint}. To test recovery, give the
 * {@link OperatorSubtaskState} to {@link #initializeState(OperatorSubtaskState, long)} of a new harness
 * around a new operator instance; to simulate a crash, drop the old harness without closing it. To test
 * rescaling, merge the snapshots of several harnesses with {@link #repackageState} and cut out each new
 * subtask's part with {@link #repartitionOperatorState}, as Flink's harness does.
 *
 * <p>Output is kept as Flink's harness keeps it: {@link StreamRecord} copies and {@link Watermark}s (of
 * {@code dev.runnel.streaming.api.watermark}), in emission order (the values themselves are not copied).
 *
 * <p>Single-threaded: call everything from the test thread. Mails ({@code StreamTaskContext.execute},
 * from any thread) queue up as in a task and run on the test thread: after each {@code process...},
 * {@code setProcessingTime} and {@code endInput} call, in {@link #processMails()}, and while the
 * operator waits in {@code yieldUntil}. Such a wait gives up after {@link #MAX_YIELD_MILLIS} with an
 * error instead of hanging the test.
 *
 * @param <OUT> the operator's output type
 */
public abstract class AbstractStreamOperatorTestHarness<OUT> implements AutoCloseable {

    /** How long {@code yieldUntil} waits for mail that makes its condition true before failing. */
    public static final long MAX_YIELD_MILLIS = 30_000;

    private record Mail(StreamTaskContext.ThrowingRunnable action, String description) {}

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
    private final LinkedBlockingQueue<Mail> mails = new LinkedBlockingQueue<>();
    private final StateBackend stateBackend;
    private final File workingDirectory;
    private Collection<KeyedStateHandle> restoredState = List.of();
    private Collection<OperatorStateHandle> restoredOperatorState = List.of();
    private Long restoredCheckpointId;
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

    /**
     * An operator config for a harness: keyed when {@code keyType} is not null (by {@code keySelector1}
     * and, for two inputs, {@code keySelector2}).
     */
    protected static OperatorConfig harnessConfig(StreamOperator<?> operator, KeySelector<?, ?> keySelector1,
            KeySelector<?, ?> keySelector2, TypeInformation<?> keyType, int maxParallelism) {
        return new OperatorConfig("harness-operator", operator.getClass().getSimpleName(), keySelector1, keySelector2,
                keyType == null ? null : keyType.createSerializer(new SerializerConfig()), maxParallelism);
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

    /**
     * Restores keyed and operator state from a snapshot this or another harness took with
     * {@link #snapshot(long, long)} (before {@link #open()}); the operator sees {@code isRestored()} and
     * restored checkpoint {@code checkpointId}.
     */
    public void initializeState(OperatorSubtaskState state, long checkpointId) throws Exception {
        this.restoredOperatorState = List.copyOf(state.managedOperatorState());
        this.restoredCheckpointId = checkpointId;
        initializeState(state.managedKeyedState());
    }

    /** As {@link #initializeState(OperatorSubtaskState, long)}, for a checkpoint whose id does not matter (0). */
    public void initializeState(OperatorSubtaskState state) throws Exception {
        initializeState(state, 0L);
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

    /** End of all input: the operator's {@code finish()}, then the mails it left. */
    public void endInput() throws Exception {
        operator.finish();
        processMails();
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

    // ------------------------------------------------------------------ mailbox

    /** Runs every queued mail, including those the mails queue, on the calling (test) thread. */
    public void processMails() throws Exception {
        Mail mail;
        while ((mail = mails.poll()) != null) {
            runMail(mail);
        }
    }

    private static void runMail(Mail mail) throws Exception {
        try {
            mail.action().run();
        } catch (OperatorException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Mail '" + mail.description() + "' failed: " + e, e);
        }
    }

    private void yieldUntil(BooleanSupplier condition) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(MAX_YIELD_MILLIS);
        while (!condition.getAsBoolean()) {
            long remaining = deadline - System.nanoTime();
            Mail mail = remaining > 0 ? mails.poll(remaining, TimeUnit.NANOSECONDS) : null;
            if (mail == null) {
                throw new IllegalStateException("The operator waited " + MAX_YIELD_MILLIS + " ms in yieldUntil and no"
                        + " mail made its condition true. Complete its pending work from another thread, or advance"
                        + " processing time before the call that waits.");
            }
            runMail(mail);
        }
    }

    // ------------------------------------------------------------------ time

    /** Advances processing time: fires processing-time timers due by {@code timestamp}, then runs mails. */
    public void setProcessingTime(long timestamp) throws Exception {
        time.advanceTo(timestamp);
        processMails();
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

    // ------------------------------------------------------------------ keyed state

    /** Entries over all keyed states, keys and namespaces of the operator (heap store only, as in Flink). */
    public int numKeyedStateEntries() {
        return keyedStateBackend("count keyed state").numKeyValueStateEntries();
    }

    /** The operator's keyed state backend (after {@link #open()}); for keyed operators. */
    @SuppressWarnings("unchecked")
    public <K> KeyedStateBackend<K> getKeyedStateBackend() {
        return (KeyedStateBackend<K>) (KeyedStateBackend<?>) keyedStateBackend("access keyed state");
    }

    /** Snapshots all keyed state and timers of this subtask, in memory; for keyed operators. */
    public KeyedStateHandle snapshot() throws Exception {
        KeyedStateBackend<Object> backend = keyedStateBackend("snapshot keyed state");
        KeyGroupRange range = backend.getKeyGroupRange();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        var offsets = backend.snapshot(range, out);
        return KeyGroupsStateHandle.inMemory("harness snapshot of " + operator.getOperatorName(), out.toByteArray(), offsets);
    }

    // ------------------------------------------------------------------ checkpoints

    /** A checkpoint barrier arrives: the operator's {@code prepareSnapshotPreBarrier}, then the mails it left. */
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        operator.prepareSnapshotPreBarrier(checkpointId);
        processMails();
    }

    /**
     * Takes checkpoint {@code checkpointId} as a task does: {@link #prepareSnapshotPreBarrier}, the operator's
     * synchronous snapshot (its own {@code snapshotState}, keyed and operator state), then writes it to memory.
     */
    public OperatorSubtaskState snapshot(long checkpointId, long timestamp) throws Exception {
        prepareSnapshotPreBarrier(checkpointId);
        return operator.snapshotState(checkpointId, timestamp, CheckpointOptions.checkpoint(true))
                .materialize(new InMemoryCheckpointStreamFactory("harness checkpoint " + checkpointId + " of "
                        + operator.getOperatorName()));
    }

    // ------------------------------------------------------------------ rescaling

    /**
     * Merges the snapshots of several instances of one operator (each taken with {@link #snapshot(long, long)}
     * by the harness of one subtask) into one state, to be cut up again for another parallelism with
     * {@link #repartitionOperatorState}. The handles are not copied; their order is that of the arguments, so
     * pass the snapshots in subtask order.
     *
     * @return the merged state; the argument itself for one snapshot, null for none (as in Flink)
     */
    public static OperatorSubtaskState repackageState(OperatorSubtaskState... handles) {
        if (handles.length == 0) {
            return null;
        }
        if (handles.length == 1) {
            return handles[0];
        }
        List<KeyedStateHandle> keyed = new ArrayList<>();
        List<OperatorStateHandle> operatorState = new ArrayList<>();
        for (OperatorSubtaskState handle : handles) {
            keyed.addAll(handle.managedKeyedState());
            operatorState.addAll(handle.managedOperatorState());
        }
        return new OperatorSubtaskState(keyed, operatorState);
    }

    /**
     * The part of {@code operatorStateHandles} (a snapshot, or several merged by {@link #repackageState}) that
     * subtask {@code subtaskIndex} of {@code newParallelism} restores, by the rules a job's restore follows
     * ({@code dev.runnel.runtime.checkpoint.StateAssignmentOperation}): the keyed state of the key groups it owns
     * out of {@code numKeyGroups} (the max parallelism), and its share of the operator state, each operator
     * state handle counting as the state of one of the {@code oldParallelism} old subtasks (a subtask without
     * operator state has none). Give the result to {@link #initializeState(OperatorSubtaskState)} of a harness
     * built for that subtask, parallelism and max parallelism.
     *
     * @throws IllegalArgumentException if there are more operator state handles than old subtasks, or the
     *     subtask index does not fit the new parallelism
     */
    public static OperatorSubtaskState repartitionOperatorState(OperatorSubtaskState operatorStateHandles,
            int numKeyGroups, int oldParallelism, int newParallelism, int subtaskIndex) {
        java.util.Objects.requireNonNull(operatorStateHandles, "the previous operatorStateHandles must not be null");
        if (subtaskIndex < 0 || subtaskIndex >= newParallelism) {
            throw new IllegalArgumentException("Subtask index " + subtaskIndex + " is not a subtask of parallelism "
                    + newParallelism);
        }
        KeyGroupRange range = StateAssignmentOperation.createKeyGroupPartitions(numKeyGroups, newParallelism)
                .get(subtaskIndex);
        List<KeyedStateHandle> keyed = StateAssignmentOperation.getKeyedStateHandles(
                operatorStateHandles.managedKeyedState(), range);
        List<OperatorStateHandle> operatorState = operatorStateHandles.managedOperatorState();
        if (operatorState.size() > oldParallelism) {
            throw new IllegalArgumentException("The state holds " + operatorState.size() + " operator state handles,"
                    + " more than the " + oldParallelism + " old subtasks; each handle is one old subtask's snapshot");
        }
        List<OperatorStateHandle> local = List.of();
        if (!operatorState.isEmpty()) {
            List<List<OperatorStateHandle>> perOldSubtask = new ArrayList<>(oldParallelism);
            for (int i = 0; i < oldParallelism; i++) {
                perOldSubtask.add(i < operatorState.size() ? List.of(operatorState.get(i)) : List.of());
            }
            local = RoundRobinOperatorStateRepartitioner.INSTANCE.repartitionState(perOldSubtask, oldParallelism,
                    newParallelism).get(subtaskIndex);
        }
        return new OperatorSubtaskState(keyed, local);
    }

    /** Checkpoint {@code checkpointId} completed: the operator's {@code notifyCheckpointComplete}, then mails. */
    public void notifyOfCompletedCheckpoint(long checkpointId) throws Exception {
        operator.notifyCheckpointComplete(checkpointId);
        processMails();
    }

    /** Checkpoint {@code checkpointId} was aborted: the operator's {@code notifyCheckpointAborted}, then mails. */
    public void notifyOfAbortedCheckpoint(long checkpointId) throws Exception {
        operator.notifyCheckpointAborted(checkpointId);
        processMails();
    }

    private KeyedStateBackend<Object> keyedStateBackend(String what) {
        KeyedStateBackend<Object> backend = abstractOperator(what).getKeyedStateBackend();
        if (backend == null) {
            throw new UnsupportedOperationException("Operator '" + operator.getOperatorName() + "' has no keyed state:"
                    + " use a keyed harness (KeyedOneInputStreamOperatorTestHarness, KeyedTwoInputStreamOperatorTestHarness)");
        }
        return backend;
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
        public Collection<OperatorStateHandle> getRestoredOperatorState(String operatorId) {
            return restoredOperatorState;
        }

        @Override
        public Long getRestoredCheckpointId() {
            return restoredCheckpointId;
        }

        @Override
        public dev.runnel.streaming.runtime.source.SourceCoordinatorGateway getSourceCoordinator(String operatorId) {
            throw new UnsupportedOperationException("The operator harness does not run sources");
        }

        @Override
        public void execute(ThrowingRunnable action, String description) {
            mails.add(new Mail(action, description));
        }

        @Override
        public void yieldUntil(BooleanSupplier condition) throws Exception {
            AbstractStreamOperatorTestHarness.this.yieldUntil(condition);
        }
    }
}
