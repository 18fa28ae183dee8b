package dev.runnel.runtime.state;

/** The context {@code CheckpointedFunction.initializeState} gets. */
public interface FunctionInitializationContext extends ManagedInitializationContext {}
