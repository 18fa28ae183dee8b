package dev.runnel.api.common.functions;

/**
 * A function with a lifecycle and access to its runtime context (subtask index, state, metrics).
 * The runtime calls, on the task thread: {@link #setRuntimeContext}, {@link #open}, then the
 * function's per-record method any number of times, then {@link #close()}.
 */
public interface RichFunction extends Function {

    /** Called once before the first record; the place to create state handles and metrics. */
    default void open(OpenContext openContext) throws Exception {}

    /** Called once after the last record (also after a failure, to release resources). */
    default void close() throws Exception {}

    RuntimeContext getRuntimeContext();

    void setRuntimeContext(RuntimeContext runtimeContext);
}
