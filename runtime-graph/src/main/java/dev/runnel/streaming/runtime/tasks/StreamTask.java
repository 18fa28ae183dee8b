package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.TaskInfo;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.core.io.InputStatus;
import dev.runnel.configuration.Configuration;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.jobgraph.SubtaskWiring;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.timers.ProcessingTimeService;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.StreamOperator;
import dev.runnel.streaming.api.operators.StreamTaskContext;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.source.SourceOperator;
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

/**
 * One subtask: a thread that runs an operator chain over its input, driven by a mailbox loop.
 *
 * <pre>
 *   loop:  mails pending? run them (timers, watermarks, flushes, splits)
 *          process a bounded piece of input (one batch, one source poll)
 *          nothing to do? park until data, room, or mail arrives
 *   end of input: finish operators (head first), flush, send end-of-partition, close
 * </pre>
 *
 * Everything that touches operators runs on this thread, so the record path takes no locks. Other
 * threads reach the task only through {@link #execute} (the mailbox) and {@link #cancel()}.
 */
public final class StreamTask implements StreamTaskContext, Runnable {

    private static final long MAX_PARK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    private final TaskDeployment deployment;
    private final TaskServices services;
    private final Thread thread;
    private final TaskWaker waker;
    private final TaskMailbox mailbox;
    private final TaskProcessingTimeService processingTimeService;
    private final TaskInfo taskInfo;
    private final MetricGroup metricGroup;
    private final Map<String, Accumulator<?, ?>> accumulators = new ConcurrentHashMap<>();
    private final Map<String, Collection<KeyedStateHandle>> restoredState;
    private final TaskListener listener;
    private final AtomicBoolean flushPending = new AtomicBoolean();

    private volatile boolean cancelled;
    private OperatorChain chain;
    private TaskInput input;
    private final Map<JobEdge, ResultPartitionWriter> writers = new LinkedHashMap<>();
    private final List<InputGate> gates = new ArrayList<>();
    private ScheduledFuture<?> flusher;

    /** Told when the task ends. */
    public interface TaskListener {
        void onFinished(StreamTask task, Map<String, Accumulator<?, ?>> accumulators);

        void onFailed(StreamTask task, Throwable cause);
    }

    public StreamTask(TaskDeployment deployment, TaskServices services,
            Map<String, Collection<KeyedStateHandle>> restoredState, TaskListener listener) {
        this.deployment = deployment;
        this.services = services;
        this.restoredState = restoredState == null ? Map.of() : restoredState;
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
    }

    /** Starts the task's thread. */
    public void start() {
        thread.start();
    }

    public Thread getThread() {
        return thread;
    }

    public TaskDeployment getDeployment() {
        return deployment;
    }

    /** Stops the task: it leaves its loop (or its wait) and fails with a cancellation. Thread-safe. */
    public void cancel() {
        cancelled = true;
        waker.wake();
        thread.interrupt();
    }

    @Override
    public void run() {
        Thread.currentThread().setContextClassLoader(getClass().getClassLoader());
        try {
            invoke();
            listener.onFinished(this, accumulators);
        } catch (Throwable t) {
            listener.onFailed(this, cancelled && !(t instanceof OperatorException) ? new TaskCancelledException(
                    deployment.taskNameWithSubtask() + " was cancelled") : t);
        }
    }

    private void invoke() throws Exception {
        try {
            createWriters();
            String subtaskName = deployment.taskNameWithSubtask();
            chain = new OperatorChain(deployment, this, writers, getExecutionConfig().isObjectReuseEnabled(),
                    deployment.job().getBufferTimeoutMillis() == 0, subtaskName);
            input = createInput(subtaskName);
            chain.initializeStateAndOpen();
            startFlusher();
            runMailboxLoop();
            stopFlusher();
            chain.finishOperators();
            mailbox.runAll();
            chain.flushOutputs();
            chain.finishOutputs();
            OperatorChain closing = chain;
            chain = null;
            closing.closeAll();
        } finally {
            cleanUp();
        }
    }

    private void runMailboxLoop() throws Exception {
        TaskInput in = input;
        while (true) {
            if (mailbox.hasMail()) {
                mailbox.runAll();
            }
            checkCancelled();
            InputStatus status = in.processInput();
            if (status == InputStatus.MORE_AVAILABLE) {
                continue;
            }
            if (status == InputStatus.END_OF_INPUT) {
                return;
            }
            waker.prepareToPark();
            if (mailbox.hasMail() || in.isAvailable() || cancelled) {
                waker.cancelPark();
                continue;
            }
            waker.park(MAX_PARK_NANOS);
        }
    }

    private void checkCancelled() {
        if (cancelled) {
            throw new TaskCancelledException(deployment.taskNameWithSubtask() + " was cancelled");
        }
    }

    private void createWriters() {
        int subtask = deployment.subtaskIndex();
        for (JobEdge edge : deployment.vertex().getOutputs()) {
            int[] consumers = SubtaskWiring.consumersBySubpartition(edge.getDistributionPattern(),
                    edge.getSource().getParallelism(), edge.getTarget().getParallelism(), subtask);
            writers.put(edge, services.shuffle().createResultPartitionWriter(edge.getId(), subtask, consumers, waker));
        }
    }

    private InputGate createGate(int inputIndex) {
        int subtask = deployment.subtaskIndex();
        List<ChannelId> channels = new ArrayList<>();
        for (JobEdge edge : deployment.vertex().getInputs()) {
            if (edge.getTargetInput() != inputIndex) {
                continue;
            }
            for (int producer : SubtaskWiring.producersOf(edge.getDistributionPattern(),
                    edge.getSource().getParallelism(), edge.getTarget().getParallelism(), subtask)) {
                channels.add(new ChannelId(edge.getId(), producer, subtask));
            }
        }
        InputGate gate = services.shuffle().createInputGate(channels, waker);
        gates.add(gate);
        return gate;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private TaskInput createInput(String subtaskName) {
        StreamOperator<?> head = chain.getHead();
        int inputs = deployment.vertex().getNumberOfInputs();
        if (head instanceof SourceOperator<?, ?> source) {
            return new SourceTaskInput(source, waker);
        }
        if (inputs == 1 && head instanceof OneInputStreamOperator<?, ?> one) {
            return new NetworkTaskInput(createGate(1), one, subtaskName);
        }
        if (inputs == 2 && head instanceof TwoInputStreamOperator<?, ?, ?> two) {
            return new TwoNetworkTaskInput(createGate(1), createGate(2), two, subtaskName);
        }
        throw new IllegalStateException("Task " + subtaskName + " has " + inputs + " inputs but its head operator '"
                + head.getOperatorName() + "' is a " + head.getClass().getSimpleName());
    }

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
        return restoredState.getOrDefault(operatorId, List.of());
    }

    @Override
    public void execute(ThrowingRunnable action, String description) {
        mailbox.put(action, description);
    }

    @Override
    public dev.runnel.streaming.runtime.source.SourceCoordinator<?, ?> getSourceCoordinator(String operatorId) {
        return services.coordinators().coordinatorFor(operatorId);
    }

    /** The services this task runs on. */
    public TaskServices getServices() {
        return services;
    }
}
