package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.common.state.KeyedStateStore;
import dev.runnel.api.common.state.OperatorStateStore;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.state.DefaultOperatorStateBackend;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import dev.runnel.runtime.state.OperatorStateBackend;
import dev.runnel.runtime.state.StateInitializationContext;
import dev.runnel.runtime.state.StateSnapshotContext;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.internal.InternalKvState;
import dev.runnel.runtime.timers.InternalTimerService;
import dev.runnel.runtime.timers.KeyContext;
import dev.runnel.runtime.timers.ProcessingTimeService;
import dev.runnel.runtime.timers.Triggerable;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * Base of Runnel's operators: keeps the output and configuration, creates keyed state and timers for
 * keyed operators, tracks watermarks (the minimum over two inputs), and sets the current key from
 * each record.
 *
 * <p>Runtime fields are transient: an operator is a serializable prototype until {@link #setup}.
 * Task thread only.
 */
public abstract class AbstractStreamOperator<OUT> implements StreamOperator<OUT>, KeyContext {

    private static final long serialVersionUID = 1L;

    protected ChainingStrategy chainingStrategy = ChainingStrategy.ALWAYS;

    protected transient Output<OUT> output;
    protected transient StreamTaskContext task;
    protected transient OperatorConfig config;

    private transient KeyedStateBackend<Object> keyedStateBackend;
    private transient DefaultOperatorStateBackend operatorStateBackend;
    private transient InternalTimeServiceManager<Object> timeServiceManager;
    private transient StreamingRuntimeContext runtimeContext;
    private transient KeySelector<Object, Object> keySelector1;
    /** The records announced by prepareKeyContexts, their keys, key hash codes and key groups; next is the one expected. */
    private transient Object[] preparedValues;
    private transient Object[] preparedKeys;
    private transient int[] preparedKeyHashes;
    private transient int[] preparedKeyGroups;
    private transient int preparedNext;
    private transient int preparedCount;
    private transient KeySelector<Object, Object> keySelector2;
    private transient long input1Watermark;
    private transient long input2Watermark;
    private transient boolean input1Idle;
    private transient boolean input2Idle;
    private transient long combinedWatermark;

    public ChainingStrategy getChainingStrategy() {
        return chainingStrategy;
    }

    public void setChainingStrategy(ChainingStrategy strategy) {
        this.chainingStrategy = strategy;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void setup(StreamOperatorParameters<OUT> parameters) {
        this.output = parameters.output();
        this.task = parameters.task();
        this.config = parameters.config();
        this.keySelector1 = (KeySelector<Object, Object>) config.keySelector1();
        this.keySelector2 = (KeySelector<Object, Object>) config.keySelector2();
        this.input1Watermark = Long.MIN_VALUE;
        this.input2Watermark = Long.MIN_VALUE;
        this.input1Idle = false;
        this.input2Idle = false;
        this.combinedWatermark = Long.MIN_VALUE;
        this.runtimeContext = new StreamingRuntimeContext(this, task, getOperatorName());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void initializeState() throws Exception {
        operatorStateBackend = new DefaultOperatorStateBackend(
                "operator '" + getOperatorName() + "' (" + task.getTaskInfo().getTaskNameWithSubtasks() + ")",
                task.getExecutionConfig().getSerializerConfig(), task.getRestoredOperatorState(config.operatorId()));
        if (config.isKeyed()) {
            createKeyedStateBackend();
        }
        Long restoredFrom = task.getRestoredCheckpointId();
        initializeState(new InitializationContext(restoredFrom == null ? java.util.OptionalLong.empty()
                : java.util.OptionalLong.of(restoredFrom), operatorStateBackend, config.isKeyed() ? getRuntimeContext() : null));
    }

    /**
     * Registers (and restores) the operator's own state, after keyed and operator state backends exist and
     * before {@link #open()}. Operators with state of their own override it; {@link AbstractUdfStreamOperator}
     * hands it to a {@link dev.runnel.streaming.api.checkpoint.CheckpointedFunction}.
     */
    public void initializeState(StateInitializationContext context) throws Exception {}

    /**
     * Brings the operator's own state up to date for checkpoint {@code context.getCheckpointId()}, on the
     * task thread, before keyed and operator state are captured.
     */
    public void snapshotState(StateSnapshotContext context) throws Exception {}

    @SuppressWarnings("unchecked")
    private void createKeyedStateBackend() throws Exception {
        int parallelism = task.getTaskInfo().getNumberOfParallelSubtasks();
        int subtask = task.getTaskInfo().getIndexOfThisSubtask();
        KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                config.maxParallelism(), parallelism, subtask);
        KeyedStateBackendParameters<Object> parameters = new KeyedStateBackendParameters<>(
                config.operatorId(),
                config.name(),
                subtask,
                (TypeSerializer<Object>) config.keySerializer(),
                config.maxParallelism(),
                range,
                task.getRestoredKeyedState(config.operatorId()),
                task.getExecutionConfig().getSerializerConfig(),
                task.getConfiguration(),
                task.getLocalDirectories(),
                null);
        keyedStateBackend = task.getStateBackend().createKeyedStateBackend(parameters);
        timeServiceManager = new InternalTimeServiceManager<>(keyedStateBackend, this, task.getProcessingTimeService(),
                task.isBatchExecution());
    }

    @Override
    public final OperatorSnapshotFutures snapshotState(long checkpointId, long timestamp,
            dev.runnel.runtime.checkpoint.CheckpointOptions options) throws Exception {
        snapshotState(new SnapshotContext(checkpointId, timestamp));
        KeyedStateSnapshot keyed = keyedStateBackend == null ? null
                : keyedStateBackend.snapshotForCheckpoint(checkpointId, options);
        try {
            return new OperatorSnapshotFutures(keyed, operatorStateBackend.snapshotSync());
        } catch (RuntimeException e) {
            if (keyed != null) {
                keyed.release();
            }
            throw e;
        }
    }

    /** The operator state of this subtask (list, union list and broadcast state). */
    public OperatorStateBackend getOperatorStateBackend() {
        return operatorStateBackend;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        if (keyedStateBackend != null) {
            keyedStateBackend.notifyCheckpointComplete(checkpointId);
        }
    }

    @Override
    public void notifyCheckpointAborted(long checkpointId) throws Exception {
        if (keyedStateBackend != null) {
            keyedStateBackend.notifyCheckpointAborted(checkpointId);
        }
    }

    @Override
    public void open() throws Exception {}

    @Override
    public void finish() throws Exception {}

    @Override
    public void close() throws Exception {
        if (timeServiceManager != null) {
            timeServiceManager.close();
        }
        if (keyedStateBackend != null) {
            keyedStateBackend.close();
            keyedStateBackend = null;
        }
        if (operatorStateBackend != null) {
            operatorStateBackend.close();
        }
    }

    private record InitializationContext(java.util.OptionalLong getRestoredCheckpointId,
            OperatorStateStore getOperatorStateStore, KeyedStateStore getKeyedStateStore)
            implements StateInitializationContext {

        @Override
        public boolean isRestored() {
            return getRestoredCheckpointId.isPresent();
        }
    }

    private record SnapshotContext(long getCheckpointId, long getCheckpointTimestamp) implements StateSnapshotContext {}

    @Override
    public String getOperatorName() {
        return config != null ? config.name() : getClass().getSimpleName();
    }

    // ------------------------------------------------------------------ keys

    // Raw types on purpose: these implement the generic methods of both input interfaces.

    /** One-input operators: makes the record's key current (no-op when not keyed). */
    @SuppressWarnings("rawtypes")
    public void setKeyContextElement(StreamRecord record) throws Exception {
        setKeyFromRecord(keySelector1, record);
    }

    @SuppressWarnings("rawtypes")
    public void setKeyContextElement1(StreamRecord record) throws Exception {
        setKeyFromRecord(keySelector1, record);
    }

    @SuppressWarnings("rawtypes")
    public void setKeyContextElement2(StreamRecord record) throws Exception {
        setKeyFromRecord(keySelector2, record);
    }

    private void setKeyFromRecord(KeySelector<Object, Object> selector, StreamRecord<?> record) throws Exception {
        if (selector == null) {
            return;
        }
        Object value = record.getValue();
        int next = preparedNext;
        if (next < preparedCount && preparedValues[next] == value) {
            // selected (and its key group computed) by prepareKeyContexts
            preparedNext = next + 1;
            keyedStateBackend.setCurrentKeyAndKeyGroup(preparedKeys[next], preparedKeyHashes[next],
                    preparedKeyGroups[next]);
            return;
        }
        preparedCount = 0; // not the announced record: the rest of the announcement is stale
        keyedStateBackend.setCurrentKey(selectKey(selector, value));
    }

    /** How many records a keyed operator whose backend does not prefetch takes per announcement. */
    private static final int KEY_CONTEXT_GROUP_SIZE = 16;

    private Object selectKey(KeySelector<Object, Object> selector, Object value) throws Exception {
        Object key = selector.getKey(value);
        if (key == null) {
            throw new OperatorException("The key selector of keyed operator '" + getOperatorName()
                    + "' returned null for record " + OperatorException.describe(value)
                    + ". Every record of a keyed stream needs a non-null key.", null);
        }
        return key;
    }

    /**
     * One-input keyed operators: the group size of a backend that prefetches, else
     * {@link #KEY_CONTEXT_GROUP_SIZE} (announced records still bring the key hashes of a keyBy edge in memory);
     * 0 for other operators. See {@link Input#keyContextGroupSize()}.
     */
    public int keyContextGroupSize() {
        int prefetch = keySelector1 == null || keySelector2 != null || keyedStateBackend == null ? -1
                : keyedStateBackend.prefetchGroupSize();
        int size = prefetch < 0 ? 0 : prefetch > 0 ? prefetch : KEY_CONTEXT_GROUP_SIZE;
        if (size > 0 && (preparedValues == null || preparedValues.length < size)) {
            preparedValues = new Object[size];
            preparedKeys = new Object[size];
            preparedKeyHashes = new int[size];
            preparedKeyGroups = new int[size];
        }
        return size;
    }

    /**
     * Selects the keys of the next records and lets the backend read ahead for them; the following
     * {@link #setKeyContextElement} calls take the keys from here while their records are the announced
     * ones (compared by identity), in order. See {@link Input#prepareKeyContexts}.
     */
    public void prepareKeyContexts(RecordBatch batch, int from, int count) throws Exception {
        KeySelector<Object, Object> selector = keySelector1;
        if (selector == null || preparedValues == null) {
            return;
        }
        int n = Math.min(count, preparedValues.length);
        int maxParallelism = keyedStateBackend.getNumberOfKeyGroups();
        // The sender's hashes, when it computed them for these key groups: a key is hashed once on its way.
        boolean hashed = batch.keyGroupsOf() == maxParallelism;
        int prepared = 0;
        for (; prepared < n; prepared++) {
            Object value = batch.value(from + prepared);
            Object key;
            try {
                key = selector.getKey(value);
            } catch (Exception e) {
                break; // the record's own setKeyContextElement fails with it, naming that record
            }
            if (key == null) {
                break;
            }
            preparedValues[prepared] = value;
            preparedKeys[prepared] = key;
            if (hashed) {
                preparedKeyHashes[prepared] = batch.keyHash(from + prepared);
                preparedKeyGroups[prepared] = batch.keyGroup(from + prepared);
            } else {
                int hash = key.hashCode(); // once: the key group, the read-ahead and the current key take it
                preparedKeyHashes[prepared] = hash;
                preparedKeyGroups[prepared] = KeyGroupRangeAssignment.computeKeyGroupForKeyHash(hash, maxParallelism);
            }
        }
        preparedNext = 0;
        preparedCount = prepared;
        keyedStateBackend.prefetch(preparedKeyHashes, preparedKeyGroups, prepared);
    }

    @Override
    public void setCurrentKey(Object key) {
        requireKeyed("set a current key").setCurrentKey(key);
    }

    @Override
    public void setCurrentKey(Object key, int keyGroup) {
        KeyedStateBackend<Object> backend = requireKeyed("set a current key");
        if (keyGroup < 0) {
            backend.setCurrentKey(key);
        } else {
            backend.setCurrentKeyAndKeyGroup(key, keyGroup);
        }
    }

    @Override
    public int currentKeyGroup() {
        return keyedStateBackend == null || keyedStateBackend.getCurrentKey() == null ? -1
                : keyedStateBackend.getCurrentKeyGroupIndex();
    }

    @Override
    public Object getCurrentKey() {
        return keyedStateBackend == null ? null : keyedStateBackend.getCurrentKey();
    }

    @Override
    public Object retainedCurrentKey() {
        return keyedStateBackend == null ? null : keyedStateBackend.retainedCurrentKey();
    }

    /** The keyed state backend; null for operators that are not keyed. */
    public KeyedStateBackend<Object> getKeyedStateBackend() {
        return keyedStateBackend;
    }

    // ------------------------------------------------------------------ state and timers

    /** The state of the current key under {@code namespace}. */
    @SuppressWarnings("unchecked")
    protected <N, S extends State> S getPartitionedState(
            N namespace, TypeSerializer<N> namespaceSerializer, StateDescriptor<S, ?> descriptor) throws Exception {
        S state = getOrCreateKeyedState(namespaceSerializer, descriptor);
        ((InternalKvState<?, N, ?>) state).setCurrentNamespace(namespace);
        return state;
    }

    /** The state object for {@code descriptor}; set its namespace before use. */
    protected <N, S extends State> S getOrCreateKeyedState(
            TypeSerializer<N> namespaceSerializer, StateDescriptor<S, ?> descriptor) throws Exception {
        descriptor.initializeSerializerUnlessSet(task.getExecutionConfig().getSerializerConfig());
        return requireKeyed("use keyed state '" + descriptor.getName() + "'")
                .getOrCreateKeyedState(namespaceSerializer, descriptor);
    }

    /** The timer service named {@code name} for timers in namespaces of type {@code N}. */
    @SuppressWarnings("unchecked")
    protected <K, N> InternalTimerService<N> getInternalTimerService(
            String name, TypeSerializer<N> namespaceSerializer, Triggerable<K, N> triggerable) {
        requireKeyed("use timers");
        return timeServiceManager.getInternalTimerService(
                name, namespaceSerializer, (Triggerable<Object, N>) triggerable);
    }

    /** Event-time timers of this operator over all keys (0 when it is not keyed); for tests. */
    public int numEventTimeTimers() {
        return timeServiceManager == null ? 0 : timeServiceManager.numEventTimeTimers();
    }

    /** Processing-time timers of this operator over all keys (0 when it is not keyed); for tests. */
    public int numProcessingTimeTimers() {
        return timeServiceManager == null ? 0 : timeServiceManager.numProcessingTimeTimers();
    }

    protected ProcessingTimeService getProcessingTimeService() {
        return task.getProcessingTimeService();
    }

    public StreamingRuntimeContext getRuntimeContext() {
        return runtimeContext;
    }

    private KeyedStateBackend<Object> requireKeyed(String what) {
        if (keyedStateBackend == null) {
            throw new UnsupportedOperationException("Operator '" + getOperatorName() + "' cannot " + what
                    + ": keyed state and timers are only available on a keyed stream, i.e. after keyBy().");
        }
        return keyedStateBackend;
    }

    /**
     * BATCH with input sorted by key: every record of the current key has been processed; fires the key's timers
     * (and so emits what the operator holds back for the end, such as a window's or a reduce's final result).
     * Task thread only; the sorted input calls it between two keys.
     */
    public void finishBatchKey() throws Exception {
        if (timeServiceManager != null) {
            timeServiceManager.finishKey();
        }
    }

    // ------------------------------------------------------------------ watermarks

    /** One-input operators: fire timers up to the watermark, then forward it. */
    public void processWatermark(Watermark mark) throws Exception {
        if (timeServiceManager != null) {
            timeServiceManager.advanceWatermark(mark.getTimestamp());
        }
        output.emitWatermark(mark);
    }

    public void processWatermark1(Watermark mark) throws Exception {
        input1Watermark = mark.getTimestamp();
        advanceCombinedWatermark();
    }

    public void processWatermark2(Watermark mark) throws Exception {
        input2Watermark = mark.getTimestamp();
        advanceCombinedWatermark();
    }

    /**
     * Event time of a two-input operator: the minimum over the inputs that are not idle, never going back.
     * When both are idle nothing advances (as Flink's CombinedWatermarkStatus): the operator is idle itself.
     */
    private void advanceCombinedWatermark() throws Exception {
        long newMin;
        if (input1Idle && input2Idle) {
            return;
        } else if (input1Idle) {
            newMin = input2Watermark;
        } else if (input2Idle) {
            newMin = input1Watermark;
        } else {
            newMin = Math.min(input1Watermark, input2Watermark);
        }
        if (newMin > combinedWatermark) {
            combinedWatermark = newMin;
            processWatermark(new Watermark(newMin));
        }
    }

    /** One-input operators: the input's idleness goes downstream as it is. */
    public void processWatermarkStatus(boolean idle) throws Exception {
        output.emitWatermarkStatus(idle);
    }

    public void processWatermarkStatus1(boolean idle) throws Exception {
        updateInputIdleness(idle, input2Idle);
    }

    public void processWatermarkStatus2(boolean idle) throws Exception {
        updateInputIdleness(input1Idle, idle);
    }

    /**
     * An input of a two-input operator changed idleness: the other input alone may now define event time,
     * and the operator is idle downstream exactly while both inputs are.
     */
    private void updateInputIdleness(boolean idle1, boolean idle2) throws Exception {
        boolean wasIdle = input1Idle && input2Idle;
        input1Idle = idle1;
        input2Idle = idle2;
        boolean isIdle = idle1 && idle2;
        if (wasIdle && !isIdle) {
            output.emitWatermarkStatus(false);
        }
        advanceCombinedWatermark();
        if (!wasIdle && isIdle) {
            output.emitWatermarkStatus(true);
        }
    }
}
