package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.RuntimeExecutionMode;
import dev.runnel.configuration.ExecutionOptions;
import dev.runnel.api.common.TaskInfo;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.core.io.InputStatus;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.TaskManagerOptions;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.io.CancelCheckpointMarker;
import dev.runnel.runtime.io.CheckpointBarrier;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.InputChannelStateHandle;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.streaming.api.operators.OperatorSnapshotFutures;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.timers.ProcessingTimeService;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.StreamOperator;
import dev.runnel.streaming.api.operators.StreamTaskContext;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.source.PollableSource;
import java.io.File;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * One subtask: a thread that runs an operator chain over its input, driven by a mailbox loop.
 *
 * <pre>
 *   loop:  mails pending? run them (timers, watermarks, flushes, splits)
 *          an output at its limit? wait for room, still running mail (backpressure is a status)
 *          process a bounded piece of input (one batch, one source poll), yielding between records
 *          when cancelled or when an output reaches its limit
 *          nothing to do? park until data, room, or mail arrives
 *   end of input: finish operators (head first), flush, send end-of-partition, close
 * </pre>
 *
 * Everything that touches operators runs on this thread, so the record path takes no locks. Other
 * threads reach the task only through {@link #execute} (the mailbox) and {@link #cancel()}. A cancelled
 * task whose thread does not stop is interrupted again every {@code task.cancellation.interval} and given
 * up on after {@code task.cancellation.timeout} with an error that shows where it is stuck.
 */
public final class StreamTask implements StreamTaskContext, DeployedTask, Runnable {

    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final TaskDeployment deployment;
    private final TaskServices services;
    private final Thread thread;
    private final TaskWaker waker;
    private final TaskMailbox mailbox;
    private final TaskProcessingTimeService processingTimeService;
    /** The pending output-side alignment timeout of the newest timeoutable checkpoint; task thread only. */
    private ProcessingTimeService.Cancellable outputAlignmentTimeout;
    private long outputAlignmentTimeoutId = -1;
    private final TaskInfo taskInfo;
    private final MetricGroup metricGroup;
    private final Map<String, Accumulator<?, ?>> accumulators = new ConcurrentHashMap<>();
    private final TaskRestore restore;
    private final CheckpointTarget checkpointTarget = new CheckpointTarget();
    private final TaskListener listener;
    private final AtomicBoolean flushPending = new AtomicBoolean();
    private final AtomicBoolean cancelStarted = new AtomicBoolean();
    private final AtomicBoolean reported = new AtomicBoolean();
    private final TaskSignals signals = new TaskSignals();
    private final BackPressureTimer backPressure = new BackPressureTimer();
    /** The time the task waited for input (parked with nothing to read), as Flink's idleTimeMsPerSecond. */
    private final BackPressureTimer idle = new BackPressureTimer();
    private final IoRates ioRates = new IoRates();
    private ScheduledFuture<?> backPressureSampler;

    private volatile OperatorChain chain;
    private TaskInput input;
    /** The same as {@link #input} when the task reads gates (not a source): where channel state is collected. */
    private StreamInputProcessor gateInput;
    private final Map<JobEdge, ResultPartitionWriter> writers = new LinkedHashMap<>();
    private final List<InputGate> gates = new ArrayList<>();
    private ScheduledFuture<?> flusher;
    /** Set when the input ended: later checkpoints are declined, since the barrier could not follow the end. */
    private volatile boolean finishing;
    /** Set once the input ended and every output was finished; the job then snapshots the task directly. */
    private volatile boolean endedInput;
    /** Set (by the job) when this ended task may close: every task ended, and the final checkpoint completed. */
    private boolean releasedAfterEnd;
    /** The newest checkpoint this task snapshotted; an older or repeated trigger is ignored. */
    private long lastCheckpointTaken = -1;
    /** The stop-with-savepoint this source task waits on (-1: none), and whether it completed or failed. */
    private long stopSavepointId = -1;
    private boolean stopResolved;
    /** Set once a stop-with-savepoint completed: the task takes no more input until it is cancelled. */
    private boolean inputSuspended;

    /** Told when the task ends. */
    public interface TaskListener {
        void onFinished(DeployedTask task, Map<String, Accumulator<?, ?>> accumulators);

        void onFailed(DeployedTask task, Throwable cause);

        /**
         * The task's input ended, its operators finished and its outputs ended; it now waits, still taking
         * checkpoints (without barriers), until {@link StreamTask#releaseAfterEndAsync()}. Only for tasks of a
         * job with a checkpoint coordinator.
         */
        default void onEndOfInput(DeployedTask task) {}

        /**
         * The task's operators restored their state and opened: it holds nothing of the snapshot it was
         * deployed from any more (a store took its files over or read them), and processes records next.
         * Called once, on the task thread, also for a task that restored nothing.
         */
        default void onRestored(DeployedTask task) {}
    }

    /**
     * @param restore the checkpoint state to start from, or null for a fresh start
     */
    public StreamTask(TaskDeployment deployment, TaskServices services, TaskRestore restore, TaskListener listener) {
        this.deployment = deployment;
        this.services = services;
        this.restore = restore;
        this.listener = listener;
        JobVertex vertex = deployment.vertex();
        this.thread = new Thread(this, deployment.taskNameWithSubtask());
        this.thread.setDaemon(true);
        this.waker = new TaskWaker(thread);
        this.mailbox = new TaskMailbox(waker);
        this.processingTimeService = new TaskProcessingTimeService(services.timerScheduler(), mailbox);
        this.taskInfo = new TaskInfo(vertex.getName(), deployment.subtaskIndex(), vertex.getParallelism(),
                vertex.getMaxParallelism(), deployment.attemptNumber());
        this.metricGroup = services.metrics().addGroup(vertex.getName()).addGroup(Integer.toString(deployment.subtaskIndex()));
        metricGroup.gauge("backPressuredTimeMsPerSecond", backPressure);
        metricGroup.gauge("idleTimeMsPerSecond", idle);
        metricGroup.gauge("busyTimeMsPerSecond", (dev.runnel.metrics.Gauge<Long>) () -> Math.max(0, 1000 - idle.getValue() - backPressure.getValue()));
        metricGroup.gauge("numRecordsIn", (dev.runnel.metrics.Gauge<Long>) () -> signals.recordsIn);
        metricGroup.gauge("numRecordsOut", (dev.runnel.metrics.Gauge<Long>) () -> signals.recordsOut);
        metricGroup.gauge("numRecordsInPerSecond", (dev.runnel.metrics.Gauge<Double>) ioRates::recordsInPerSecond);
        metricGroup.gauge("numRecordsOutPerSecond", (dev.runnel.metrics.Gauge<Double>) ioRates::recordsOutPerSecond);
    }

    /** Per-second rates of the record counters, closed by the metrics sampler once a second. */
    private final class IoRates {
        private long lastIn;
        private long lastOut;
        private long lastNanos = System.nanoTime();
        private volatile double inPerSecond;
        private volatile double outPerSecond;

        synchronized void sample() {
            long now = System.nanoTime();
            long in = signals.recordsIn;
            long out = signals.recordsOut;
            double seconds = (now - lastNanos) / 1e9;
            if (seconds > 0) {
                inPerSecond = (in - lastIn) / seconds;
                outPerSecond = (out - lastOut) / seconds;
            }
            lastIn = in;
            lastOut = out;
            lastNanos = now;
        }

        double recordsInPerSecond() {
            return inPerSecond;
        }

        double recordsOutPerSecond() {
            return outPerSecond;
        }
    }

    /** Starts the task's thread. */
    @Override
    public void start() {
        thread.start();
    }

    public Thread getThread() {
        return thread;
    }

    @Override
    public String describe() {
        return deployment.taskNameWithSubtask();
    }

    public TaskDeployment getDeployment() {
        return deployment;
    }

    /**
     * Stops the task: it leaves its loop (or its wait) after the current record and fails with a
     * cancellation. A watchdog keeps interrupting a thread that does not stop and, after
     * {@code task.cancellation.timeout}, reports the task failed with where it is stuck. Thread-safe, idempotent.
     */
    @Override
    public void cancel() {
        signals.cancelled = true;
        waker.wake();
        thread.interrupt();
        if (cancelStarted.compareAndSet(false, true) && thread.isAlive()) {
            Thread watchdog = new Thread(this::watchCancellation, "Canceler for " + deployment.taskNameWithSubtask());
            watchdog.setDaemon(true);
            watchdog.start();
        }
    }

    @Override
    public void run() {
        Thread.currentThread().setContextClassLoader(services.userCodeClassLoader());
        try {
            invoke();
            if (reported.compareAndSet(false, true)) {
                listener.onFinished(this, accumulators);
            }
        } catch (Throwable t) {
            if (reported.compareAndSet(false, true)) {
                listener.onFailed(this, signals.cancelled && !(t instanceof OperatorException)
                        ? new TaskCancelledException(deployment.taskNameWithSubtask() + " was cancelled") : t);
            }
        }
    }

    /** The cancellation watchdog: re-interrupts the task thread until it stops, gives up at the timeout. */
    private void watchCancellation() {
        long interval = Math.max(1, services.configuration().get(TaskManagerOptions.TASK_CANCELLATION_INTERVAL));
        long timeout = services.configuration().get(TaskManagerOptions.TASK_CANCELLATION_TIMEOUT);
        long deadline = timeout > 0 ? System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeout) : Long.MAX_VALUE;
        try {
            while (thread.isAlive()) {
                long remainingMillis = TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime());
                if (remainingMillis <= 0) {
                    giveUp(timeout);
                    return;
                }
                thread.join(Math.max(1, Math.min(interval, remainingMillis)));
                if (thread.isAlive()) {
                    thread.interrupt();
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void giveUp(long timeoutMillis) {
        if (!reported.compareAndSet(false, true)) {
            return;
        }
        StackTraceElement[] stack = thread.getStackTrace();
        OperatorChain current = chain;
        String operator = current == null ? null : current.operatorOnStack(stack);
        StringBuilder message = new StringBuilder("Task '").append(deployment.taskNameWithSubtask())
                .append("' did not stop within ").append(timeoutMillis).append(" ms of being cancelled (")
                .append(TaskManagerOptions.TASK_CANCELLATION_TIMEOUT.key()).append("); its thread is stuck in ")
                .append(operator == null ? "the task" : "operator '" + operator + "'")
                .append(" and ignores interrupts. The thread is abandoned; make the function return or react to"
                        + " Thread.interrupt(). Its stack:");
        for (StackTraceElement frame : stack) {
            message.append("\n\tat ").append(frame);
        }
        listener.onFailed(this, new TaskCancellationTimeoutException(message.toString(), stack));
    }

    private void invoke() throws Exception {
        try {
            createWriters();
            String subtaskName = deployment.taskNameWithSubtask();
            chain = new OperatorChain(deployment, this, writers, getExecutionConfig().isObjectReuseEnabled(),
                    deployment.job().getBufferTimeoutMillis() == 0, subtaskName, signals);
            input = createInput(subtaskName);
            chain.initializeStateAndOpen(getRestoredCheckpointId(), subtaskName);
            listener.onRestored(this);
            startFlusher();
            backPressureSampler = services.timerScheduler().scheduleAtFixedRate(() -> {
                backPressure.sample();
                idle.sample();
                ioRates.sample();
            }, 1, 1, TimeUnit.SECONDS);
            runMailboxLoop();
            finishing = true;
            stopFlusher();
            chain.finishOperators();
            mailbox.runAll();
            chain.flushOutputs();
            chain.finishOutputs();
            if (services.checkpoints() != CheckpointResponder.NONE) {
                // The task stays until the job lets it go, so that checkpoints and savepoints taken while other
                // tasks still run include its final state (as Flink's checkpoints after tasks finish), and, with
                // periodic checkpoints, until the final checkpoint covered its end: a sink's last files are
                // committed only then, so a failure elsewhere cannot make them appear twice.
                endedInput = true;
                listener.onEndOfInput(this);
                yieldUntil(() -> releasedAfterEnd);
            }
            OperatorChain closing = chain;
            chain = null;
            closing.closeAll();
        } finally {
            cleanUp();
        }
    }

    private void runMailboxLoop() throws Exception {
        TaskInput in = input;
        OperatorChain operators = chain;
        while (true) {
            if (mailbox.hasMail()) {
                mailbox.runAll();
            }
            checkCancelled();
            if (signals.outputBlocked) {
                if (!operators.outputsAvailable()) {
                    waitForOutputRoom(operators);
                    continue;
                }
                signals.outputBlocked = false;
            }
            if (inputSuspended) {
                waker.prepareToPark();
                if (mailbox.hasMail() || signals.cancelled) {
                    waker.cancelPark();
                } else {
                    waker.park(MAX_PARK_NANOS);
                }
                continue;
            }
            InputStatus status = in.processInput();
            if (status == InputStatus.MORE_AVAILABLE) {
                continue;
            }
            if (status == InputStatus.END_OF_INPUT) {
                return;
            }
            waker.prepareToPark();
            if (mailbox.hasMail() || in.isAvailable() || signals.cancelled) {
                waker.cancelPark();
                continue;
            }
            idle.startWait();
            waker.park(MAX_PARK_NANOS);
            idle.endWait();
        }
    }

    /**
     * Parks until a consumer makes room (its poll, or the network taking a buffer, wakes this thread), a mail
     * arrives, or cancellation. The time counts as backpressure.
     */
    private void waitForOutputRoom(OperatorChain operators) {
        waker.prepareToPark();
        if (mailbox.hasMail() || signals.cancelled || operators.outputsAvailable()) {
            waker.cancelPark();
            return;
        }
        backPressure.startWait();
        waker.park(MAX_PARK_NANOS);
        backPressure.endWait();
    }

    private void checkCancelled() {
        if (signals.cancelled) {
            throw new TaskCancelledException(deployment.taskNameWithSubtask() + " was cancelled");
        }
    }

    private void createWriters() {
        List<JobEdge> edges = deployment.vertex().getOutputs();
        for (int i = 0; i < edges.size(); i++) {
            writers.put(edges.get(i),
                    services.shuffle().createResultPartitionWriter(deployment.resultPartitions().get(i), waker));
        }
    }

    private InputGate createGate(int inputIndex) {
        InputGate gate = services.shuffle().createInputGate(deployment.inputGates().get(inputIndex - 1), waker);
        gates.add(gate);
        return gate;
    }

    /**
     * BATCH, with the input in finished blocking partitions: a keyed one-input head sees its records sorted by key
     * and finishes each key before the next (its timers fire then), as in Flink's batch execution, spilling sorted
     * runs into the task's working directory beyond {@code execution.sorted-inputs.memory}; any other gate as it is.
     */
    private InputGate sortedByKeyInBatch(InputGate gate) {
        dev.runnel.streaming.api.operators.OperatorConfig config = deployment.vertex().getHead().getConfig();
        if (getRuntimeExecutionMode() != RuntimeExecutionMode.BATCH || !deployment.inputGates().get(0).isBlocking()
                || !services.configuration().get(ExecutionOptions.SORT_INPUTS)
                || config.keySelector1() == null
                || !(chain.getHead() instanceof dev.runnel.streaming.api.operators.AbstractStreamOperator<?> head)) {
            return gate;
        }
        java.nio.file.Path spills = services.localDirectories().get(0).toPath().resolve("batch-sort");
        InputGate sorted = new KeySortingInputGate(gate, config.keySelector1(), config.keySerializer(),
                deployment.inputGates().get(0).serializer(),
                services.configuration().get(ExecutionOptions.SORTED_INPUTS_MEMORY).getBytes(), spills,
                head::finishBatchKey);
        gates.set(gates.indexOf(gate), sorted);
        return sorted;
    }

    private TaskInput createInput(String subtaskName) {
        StreamOperator<?> head = chain.getHead();
        int inputs = deployment.vertex().getNumberOfInputs();
        if (head instanceof PollableSource source) {
            return new SourceTaskInput(source, waker, signals, mailbox);
        }
        if (inputs == 1 && head instanceof OneInputStreamOperator<?, ?> one) {
            gateInput = StreamInputProcessor.forOneInput(sortedByKeyInBatch(createGate(1)), one, subtaskName, signals,
                    checkpointTarget, barrierSetup());
            restoreChannelState(gateInput, subtaskName);
            return gateInput;
        }
        if (inputs == 2 && head instanceof TwoInputStreamOperator<?, ?, ?> two) {
            gateInput = StreamInputProcessor.forTwoInputs(createGate(1), createGate(2), two, subtaskName, signals,
                    checkpointTarget, barrierSetup());
            restoreChannelState(gateInput, subtaskName);
            return gateInput;
        }
        throw new IllegalStateException("Task " + subtaskName + " has " + inputs + " inputs but its head operator '"
                + head.getOperatorName() + "' is a " + head.getClass().getSimpleName());
    }

    /**
     * The barrier handler's view of this task's inputs: the gates, the edges whose partitioner does not support
     * unaligned checkpoints (their barriers arrive forced aligned), and the timers for the alignment timeout.
     */
    private CheckpointBarrierHandler.Setup barrierSetup() {
        java.util.Set<String> alignedOnly = new java.util.HashSet<>();
        for (dev.runnel.runtime.jobgraph.JobEdge edge : deployment.vertex().getInputs()) {
            if (!edge.getPartitioner().isSupportsUnalignedCheckpoint()) {
                alignedOnly.add(edge.getId());
            }
        }
        return new CheckpointBarrierHandler.Setup(deployment.inputGates(), alignedOnly, processingTimeService);
    }

    private String headOperatorId() {
        return deployment.vertex().getHead().getConfig().operatorId();
    }

    /**
     * A task restored from an unaligned checkpoint processes the in-flight records its head's state holds,
     * gate by gate in channel order, before any live input (they were sent before the barrier).
     */
    private void restoreChannelState(StreamInputProcessor processor, String subtaskName) {
        if (restore == null) {
            return;
        }
        List<InputChannelStateHandle> channels = restore.stateOf(headOperatorId()).inputChannelState();
        if (channels.isEmpty()) {
            return;
        }
        dev.runnel.metrics.Counter restored = metricGroup.counter(RESTORED_IN_FLIGHT_RECORDS);
        for (int g = 0; g < deployment.inputGates().size(); g++) {
            int gate = g;
            List<InputChannelStateHandle> ofGate = channels.stream().filter(h -> h.gateIndex() == gate).toList();
            if (!ofGate.isEmpty()) {
                processor.setReplay(g, new ChannelStateReplay(ofGate, deployment.inputGates().get(g).serializer(),
                        restored, subtaskName, this::channelStateFilter));
            }
        }
    }

    /**
     * Which replayed records of {@code handle} this subtask keeps, or null for all. After a rescale an
     * ambiguous mapper (RANGE for keyBy, FULL for hash and custom partitioners) gives one old channel's records
     * to several new subtasks; each keeps those the edge's partitioner now routes to it, so every record is
     * processed exactly once. At an unchanged parallelism the same test keeps everything, the partitioners
     * being deterministic, so it needs no flag saying whether the job was rescaled.
     */
    private java.util.function.Predicate<Object> channelStateFilter(InputChannelStateHandle handle) {
        for (dev.runnel.runtime.jobgraph.JobEdge edge : deployment.vertex().getInputs()) {
            if (edge.getId().equals(handle.edgeId())) {
                if (!edge.getPartitioner().getDownstreamSubtaskStateMapper().isAmbiguous()) {
                    return null;
                }
                @SuppressWarnings("unchecked")
                dev.runnel.runtime.partitioner.StreamPartitioner<Object> partitioner =
                        (dev.runnel.runtime.partitioner.StreamPartitioner<Object>) edge.getPartitioner().copy();
                partitioner.setup(deployment.vertex().getParallelism());
                int subtask = deployment.subtaskIndex();
                return record -> partitioner.selectChannel(record) == subtask;
            }
        }
        // The assignment checked every handle's edge against this vertex's inputs.
        throw new IllegalStateException(deployment.taskNameWithSubtask() + " has no input edge " + handle.edgeId() + " for " + handle);
    }

    /** Metric (counter, per subtask): in-flight records persisted as channel state by unaligned checkpoints. */
    public static final String PERSISTED_IN_FLIGHT_RECORDS = "unalignedCheckpointInFlightRecordsPersisted";

    /** Metric (counter, per subtask): in-flight records restored from channel state and processed again. */
    public static final String RESTORED_IN_FLIGHT_RECORDS = "unalignedCheckpointInFlightRecordsRestored";

    private void startFlusher() {
        long timeout = deployment.job().getBufferTimeoutMillis();
        if (timeout <= 0 || writers.isEmpty()) {
            return;
        }
        flusher = services.timerScheduler().scheduleAtFixedRate(() -> {
            if (flushPending.compareAndSet(false, true)) {
                mailbox.put(() -> {
                    flushPending.set(false);
                    if (chain != null) {
                        chain.flushOutputs();
                    }
                }, "output flush");
            }
        }, timeout, timeout, TimeUnit.MILLISECONDS);
    }

    private void stopFlusher() {
        if (flusher != null) {
            flusher.cancel(false);
            flusher = null;
        }
    }

    private void cleanUp() {
        stopFlusher();
        if (backPressureSampler != null) {
            backPressureSampler.cancel(false);
        }
        processingTimeService.shutdown();
        if (chain != null) {
            try {
                chain.closeAll();
            } catch (Exception e) {
                // The task already failed; the close failure is secondary.
            }
        }
        if (input != null) {
            input.close();
        }
        for (InputGate gate : gates) {
            gate.close();
        }
        for (ResultPartitionWriter writer : writers.values()) {
            writer.close();
        }
        mailbox.clear();
    }

    // ------------------------------------------------------------------ StreamTaskContext

    @Override
    public String getJobName() {
        return deployment.job().getJobName();
    }

    @Override
    public TaskInfo getTaskInfo() {
        return taskInfo;
    }

    @Override
    public ExecutionConfig getExecutionConfig() {
        return deployment.job().getExecutionConfig();
    }

    @Override
    public Configuration getConfiguration() {
        return services.configuration();
    }

    @Override
    public ProcessingTimeService getProcessingTimeService() {
        return processingTimeService;
    }

    @Override
    public MetricGroup getMetricGroup() {
        return metricGroup;
    }

    @Override
    public Map<String, Accumulator<?, ?>> getAccumulators() {
        return accumulators;
    }

    @Override
    public StateBackend getStateBackend() {
        return services.stateBackend();
    }

    @Override
    public List<File> getLocalDirectories() {
        return services.localDirectories();
    }

    @Override
    public Collection<KeyedStateHandle> getRestoredKeyedState(String operatorId) {
        return restore == null ? List.of() : restore.stateOf(operatorId).managedKeyedState();
    }

    @Override
    public Collection<OperatorStateHandle> getRestoredOperatorState(String operatorId) {
        return restore == null ? List.of() : restore.stateOf(operatorId).managedOperatorState();
    }

    @Override
    public boolean isCheckpointingEnabled() {
        return services.checkpoints().isPeriodicCheckpointingEnabled();
    }

    @Override
    public Long getRestoredCheckpointId() {
        return restore == null ? null : restore.checkpointId();
    }

    /** BATCH if the job graph says so (the generator resolves AUTOMATIC), else STREAMING. */
    @Override
    public RuntimeExecutionMode getRuntimeExecutionMode() {
        return deployment.job().getConfiguration().get(ExecutionOptions.RUNTIME_MODE) == RuntimeExecutionMode.BATCH
                ? RuntimeExecutionMode.BATCH : RuntimeExecutionMode.STREAMING;
    }

    @Override
    public void execute(ThrowingRunnable action, String description) {
        mailbox.put(action, description);
    }

    /** Runs mails and parks, as the mailbox loop does, until {@code condition} holds; no input is read meanwhile. */
    @Override
    public void yieldUntil(BooleanSupplier condition) throws Exception {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("yieldUntil may only be called on the thread of task "
                    + deployment.taskNameWithSubtask() + ", not on " + Thread.currentThread().getName());
        }
        while (!condition.getAsBoolean()) {
            if (mailbox.hasMail()) {
                mailbox.runAll();
                continue;
            }
            checkCancelled();
            waker.prepareToPark();
            if (mailbox.hasMail() || signals.cancelled || condition.getAsBoolean()) {
                waker.cancelPark();
                continue;
            }
            waker.park(MAX_PARK_NANOS);
        }
    }

    @Override
    public dev.runnel.streaming.runtime.source.SourceCoordinatorGateway getSourceCoordinator(String operatorId) {
        return services.coordinators().coordinatorFor(operatorId);
    }

    // ------------------------------------------------------------------ checkpoints

    /**
     * Starts checkpoint {@code checkpointId} at this source task: as a mail, so between two records (and
     * after every split assignment that came before it). Thread-safe. A task that has finished or not started
     * yet declines.
     */
    @Override
    public void triggerCheckpointAsync(long checkpointId, long timestamp, CheckpointOptions options) {
        triggerCheckpointAsync(checkpointId, timestamp, options, false, false);
    }

    /**
     * As {@link #triggerCheckpointAsync(long, long, CheckpointOptions)}, for stop-with-savepoint: with
     * {@code drain} the source first emits the maximum watermark (every event-time timer and window fires
     * before the barrier); with {@code stop} it then reads no more input, so nothing follows the barrier,
     * until the savepoint is given up (then it resumes) or completes (then the job stops the task).
     */
    @Override
    public void triggerCheckpointAsync(long checkpointId, long timestamp, CheckpointOptions options, boolean stop,
            boolean drain) {
        mailbox.put(() -> {
            if (drain && chain != null && !finishing && chain.getHead() instanceof PollableSource source) {
                source.emitMaxWatermark();
            }
            performCheckpoint(new CheckpointBarrier(checkpointId, timestamp, options), 0);
            if (stop && chain != null && !finishing) {
                stopSavepointId = checkpointId;
                stopResolved = false;
                PollableSource source = chain.getHead() instanceof PollableSource s ? s : null;
                if (source != null) {
                    source.setSuspended(true);
                }
                yieldUntil(() -> stopResolved);
                if (source != null && !inputSuspended) {
                    source.setSuspended(false);
                }
            }
        }, "checkpoint " + checkpointId);
    }

    /** Checkpoint {@code checkpointId} completed: operators may publish what it covers. Thread-safe. */
    @Override
    public void notifyCheckpointCompleteAsync(long checkpointId) {
        mailbox.put(() -> {
            cancelOutputAlignmentTimeout(checkpointId);
            if (chain != null) {
                chain.notifyCheckpoint(checkpointId, true);
                if (checkpointId == stopSavepointId) {
                    // The job stops now; the task reads nothing more until it is cancelled.
                    inputSuspended = true;
                    stopResolved = true;
                }
            }
        }, "checkpoint " + checkpointId + " completed");
    }

    /** Checkpoint {@code checkpointId} was aborted. Thread-safe. */
    @Override
    public void notifyCheckpointAbortedAsync(long checkpointId) {
        mailbox.put(() -> {
            cancelOutputAlignmentTimeout(checkpointId);
            if (chain != null) {
                chain.notifyCheckpoint(checkpointId, false);
            }
            if (checkpointId == stopSavepointId) {
                stopResolved = true;
            }
            if (gateInput != null) {
                gateInput.barrierHandler().abortChannelState(checkpointId);
            }
        }, "checkpoint " + checkpointId + " aborted");
    }

    /** The job lets this task close after the end of its input (see {@link TaskListener#onEndOfInput}). Thread-safe. */
    @Override
    public void releaseAfterEndAsync() {
        mailbox.put(() -> releasedAfterEnd = true, "release after the end of input");
    }

    /** Whether the task's input ended and its outputs are finished; it then takes checkpoints without barriers. */
    @Override
    public boolean hasEndedInput() {
        return endedInput;
    }

    /**
     * The checkpoint at this task, on the task thread: operators emit what belongs before the barrier, the
     * barrier goes out on every edge, every operator captures its state (the synchronous pause), and the state
     * is written on another thread, which then acknowledges. A task whose input ended sends no barrier (its
     * channels carried their end instead, which aligns them downstream) and snapshots its final state.
     */
    private void performCheckpoint(CheckpointBarrier barrier, long alignmentNanos) throws Exception {
        performCheckpoint(barrier, alignmentNanos, null);
    }

    /**
     * As above; for an unaligned checkpoint {@code channelState} collects the in-flight input records after the
     * snapshot, and the state is written only once it is complete (every channel's in-order barrier arrived).
     */
    private void performCheckpoint(CheckpointBarrier barrier, long alignmentNanos, ChannelStateCollector channelState)
            throws Exception {
        long id = barrier.id();
        OperatorChain operators = chain;
        if (operators == null) {
            if (channelState != null) {
                channelState.abort();
            }
            declineCheckpoint(id, new TaskNotRunningException("Task " + deployment.taskNameWithSubtask()
                    + " has not started"));
            return;
        }
        if (id <= lastCheckpointTaken) {
            if (channelState != null) {
                channelState.abort();
            }
            return;
        }
        lastCheckpointTaken = id;
        boolean ended = finishing;
        long syncStart = System.nanoTime();
        Map<String, OperatorSnapshotFutures> snapshots;
        try {
            operators.prepareSnapshotPreBarrier(id);
            if (!ended) {
                operators.broadcastEvent(barrier);
                if (barrier.options().isTimeoutable()) {
                    armOutputAlignmentTimeout(barrier);
                }
            }
            snapshots = operators.snapshotState(id, barrier.timestamp(), barrier.options());
        } catch (InterruptedException e) {
            throw e;
        } catch (Exception e) {
            if (channelState != null) {
                channelState.abort();
            }
            declineCheckpoint(id, e);
            if (!ended) {
                operators.broadcastEvent(new CancelCheckpointMarker(id));
            }
            return;
        }
        long syncMillis = (System.nanoTime() - syncStart) / 1_000_000;
        long alignmentMillis = alignmentNanos / 1_000_000;
        if (channelState == null) {
            services.asyncOperations().execute(() -> materialize(id, snapshots, alignmentMillis, syncMillis, null));
            return;
        }
        channelState.onComplete(
                () -> services.asyncOperations().execute(() -> materialize(id, snapshots, 0, syncMillis, channelState)),
                () -> snapshots.values().forEach(OperatorSnapshotFutures::release));
    }

    /**
     * Flink also times aligned barriers out in the output queues: once {@code barrier}'s checkpoint is older than
     * its aligned checkpoint timeout, its overtaking (unaligned) copy goes ahead of whatever the queues still hold,
     * so a consumer behind backpressure switches to unaligned without waiting for the in-order copy (which would
     * reach every channel of a consumer at about the same time, leaving little to persist). A consumer that
     * already has the barrier ignores the copy. Skipped once a newer checkpoint started or the output ended.
     */
    private void armOutputAlignmentTimeout(CheckpointBarrier barrier) {
        long id = barrier.id();
        long deadline = barrier.timestamp() + barrier.options().getAlignedCheckpointTimeout();
        cancelOutputAlignmentTimeout(outputAlignmentTimeoutId);
        outputAlignmentTimeoutId = id;
        outputAlignmentTimeout = processingTimeService.registerTimer(deadline, time -> {
            outputAlignmentTimeout = null;
            if (chain != null && !finishing && lastCheckpointTaken == id) {
                chain.overtakeWithBarrier(new CheckpointBarrier(id, barrier.timestamp(),
                        barrier.options().toUnaligned()));
            }
        });
    }

    /** Checkpoint {@code checkpointId} completed or was given up: its barrier need not overtake any more. */
    private void cancelOutputAlignmentTimeout(long checkpointId) {
        if (outputAlignmentTimeout != null && outputAlignmentTimeoutId == checkpointId) {
            outputAlignmentTimeout.cancel();
            outputAlignmentTimeout = null;
        }
    }

    private void materialize(long checkpointId, Map<String, OperatorSnapshotFutures> snapshots, long alignmentMillis,
            long syncMillis, ChannelStateCollector channelState) {
        long start = System.nanoTime();
        Map<String, OperatorSubtaskState> states = new LinkedHashMap<>();
        try {
            CheckpointStreamFactory streams = services.checkpoints().streamFactory(checkpointId);
            long size = 0;
            for (Map.Entry<String, OperatorSnapshotFutures> snapshot : snapshots.entrySet()) {
                OperatorSubtaskState state = snapshot.getValue().materialize(streams);
                size += state.getStateSize();
                if (!state.isEmpty()) {
                    states.put(snapshot.getKey(), state);
                }
            }
            if (channelState != null) {
                // The channel state belongs to the head operator, which the records enter on restore.
                List<InputChannelStateHandle> channels = channelState.write(streams);
                if (!channels.isEmpty()) {
                    String head = headOperatorId();
                    OperatorSubtaskState headState = states.getOrDefault(head, OperatorSubtaskState.EMPTY);
                    states.put(head, headState.withInputChannelState(channels));
                    for (InputChannelStateHandle channel : channels) {
                        size += channel.getStateSize();
                    }
                    metricGroup.counter(PERSISTED_IN_FLIGHT_RECORDS).inc(channelState.recordCount());
                }
            }
            long asyncMillis = (System.nanoTime() - start) / 1_000_000;
            services.checkpoints().acknowledgeCheckpoint(deployment.vertex().getId(), deployment.subtaskIndex(),
                    checkpointId, states, new CheckpointMetrics(alignmentMillis, syncMillis, asyncMillis, size));
        } catch (Throwable t) {
            snapshots.values().forEach(OperatorSnapshotFutures::release);
            discardQuietly(states.values());
            declineCheckpoint(checkpointId, t);
        }
    }

    private static void discardQuietly(Collection<OperatorSubtaskState> states) {
        for (OperatorSubtaskState state : states) {
            for (KeyedStateHandle handle : state.managedKeyedState()) {
                try {
                    handle.discardState();
                } catch (Exception e) {
                    // the checkpoint's folder is deleted as a whole when the checkpoint is given up
                }
            }
            for (OperatorStateHandle handle : state.managedOperatorState()) {
                try {
                    handle.discardState();
                } catch (Exception e) {
                    // as above
                }
            }
            for (InputChannelStateHandle handle : state.inputChannelState()) {
                try {
                    handle.discardState();
                } catch (Exception e) {
                    // as above
                }
            }
        }
    }

    private void declineCheckpoint(long checkpointId, Throwable cause) {
        services.checkpoints().declineCheckpoint(deployment.vertex().getId(), deployment.subtaskIndex(), checkpointId,
                cause);
    }

    /** What the barrier handler calls; kept off the task's public surface. */
    private final class CheckpointTarget implements CheckpointBarrierHandler.Target {
        @Override
        public void triggerCheckpointOnBarrier(CheckpointBarrier barrier, long alignmentNanos) throws Exception {
            performCheckpoint(barrier, alignmentNanos);
        }

        @Override
        public void triggerUnalignedCheckpointOnBarrier(CheckpointBarrier barrier, ChannelStateCollector channelState)
                throws Exception {
            performCheckpoint(barrier, 0, channelState);
        }

        @Override
        public void abortCheckpointOnBarrier(long checkpointId, String reason) throws Exception {
            declineCheckpoint(checkpointId, new IllegalStateException("Task " + deployment.taskNameWithSubtask()
                    + " gave up checkpoint " + checkpointId + ": " + reason));
            if (chain != null) {
                chain.broadcastEvent(new CancelCheckpointMarker(checkpointId));
            }
        }
    }

    /** The services this task runs on. */
    public TaskServices getServices() {
        return services;
    }
}
