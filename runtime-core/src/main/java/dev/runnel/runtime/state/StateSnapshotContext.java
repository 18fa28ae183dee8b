package dev.runnel.runtime.state;

/** The context an operator's {@code snapshotState} gets. */
public interface StateSnapshotContext extends FunctionSnapshotContext {}
