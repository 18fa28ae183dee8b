package dev.runnel.streaming.api.checkpoint;

import dev.runnel.runtime.state.FunctionInitializationContext;
import dev.runnel.runtime.state.FunctionSnapshotContext;

/**
 * A user function with state of its own beyond keyed state: it registers operator state (or keyed state)
 * in {@link #initializeState} and brings it up to date in {@link #snapshotState}, which runs on the task
 * thread at each checkpoint, between two records. Both run on the task thread.
 */
public interface CheckpointedFunction {

    /** A checkpoint is taken: put what the function holds into its registered states. */
    void snapshotState(FunctionSnapshotContext context) throws Exception;

    /** Registers the function's states, restoring them when {@code context.isRestored()}. Before {@code open}. */
    void initializeState(FunctionInitializationContext context) throws Exception;
}
