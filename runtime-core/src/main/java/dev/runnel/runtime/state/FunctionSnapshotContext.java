package dev.runnel.runtime.state;

/** The context {@code CheckpointedFunction.snapshotState} gets. */
public interface FunctionSnapshotContext extends ManagedSnapshotContext {}
