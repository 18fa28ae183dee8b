package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.TaskInfo;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.configuration.Configuration;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.timers.ProcessingTimeService;
import java.io.File;
import java.util.Collection;
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * What the operators of a task may use of it: identity, configuration, services, and a way back onto
 * the task thread. Implemented by the task; task thread only unless a method says otherwise.
 */
public interface StreamTaskContext {

    String getJobName();

    TaskInfo getTaskInfo();

    ExecutionConfig getExecutionConfig();

    Configuration getConfiguration();

    ProcessingTimeService getProcessingTimeService();

    /** The task's metric group; operators add their own child group. */
    MetricGroup getMetricGroup();

    /** Accumulators of this subtask by name; merged over subtasks when the job ends. */
    java.util.Map<String, Accumulator<?, ?>> getAccumulators();

    /** The store for keyed state of this job. */
    StateBackend getStateBackend();

    /** Directories where stores may keep working files. */
    List<File> getLocalDirectories();

    /** Keyed state snapshots to restore operator {@code operatorId} from; empty on a fresh start. */
    Collection<KeyedStateHandle> getRestoredKeyedState(String operatorId);

    /** Operator state snapshots to restore operator {@code operatorId} from; empty on a fresh start. */
    default Collection<dev.runnel.runtime.state.OperatorStateHandle> getRestoredOperatorState(String operatorId) {
        return List.of();
    }

    /**
     * The checkpoint (or savepoint) this task's state is restored from, or null on a fresh start. Operators
     * report {@code isRestored()} from it even when they themselves have no state in it.
     */
    default Long getRestoredCheckpointId() {
        return null;
    }

    /**
     * Whether the job takes checkpoints. Then output that must appear exactly once (a sink's commit) waits for
     * a checkpoint, at the end of input too: the job takes a final checkpoint after every task finished.
     */
    default boolean isCheckpointingEnabled() {
        return false;
    }

    /** The coordinator of source operator {@code operatorId} (split assignment). */
    dev.runnel.streaming.runtime.source.SourceCoordinatorGateway getSourceCoordinator(String operatorId);

    /**
     * How the job runs, as the job graph resolved it: {@code STREAMING} or {@code BATCH} (never
     * {@code AUTOMATIC}). In BATCH, operators emit final results at the end of input. Defaults to
     * STREAMING for contexts that do not know (test harnesses).
     */
    default dev.runnel.api.common.RuntimeExecutionMode getRuntimeExecutionMode() {
        return dev.runnel.api.common.RuntimeExecutionMode.STREAMING;
    }

    /** Whether the job runs in BATCH mode ({@link #getRuntimeExecutionMode()}). */
    default boolean isBatchExecution() {
        return getRuntimeExecutionMode() == dev.runnel.api.common.RuntimeExecutionMode.BATCH;
    }

    /** Runs {@code action} on the task thread later. Thread-safe. */
    void execute(ThrowingRunnable action, String description);

    /**
     * Waits cooperatively on the task thread until {@code condition} holds: runs mails (timers, actions
     * put by {@link #execute}) while waiting and parks when there are none, so whatever makes the condition
     * true must arrive as a mail. Returns at once if the condition already holds. For operators that must
     * not take more input until something completes (for example an async operator at its capacity).
     *
     * <p>Task thread only; may be called from within an operator's input methods and {@code finish()}.
     * The condition is evaluated on the task thread and must be cheap.
     *
     * @throws Exception a failure of a mail that ran while waiting, or the task's cancellation
     */
    void yieldUntil(BooleanSupplier condition) throws Exception;

    /** An action that may throw; run on the task thread. */
    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }
}
