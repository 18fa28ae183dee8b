package dev.runnel.runtime.state;

/** The context an operator's {@code initializeState} gets. */
public interface StateInitializationContext extends FunctionInitializationContext {}
