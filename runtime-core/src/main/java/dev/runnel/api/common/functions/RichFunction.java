package dev.runnel.api.common.functions;

import dev.runnel.configuration.Configuration;

/**
 * A function with a lifecycle and access to its runtime context (subtask index, state, metrics).
 * The runtime calls, on the task thread: {@link #setRuntimeContext}, {@link #open(OpenContext)},
 * then the function's per-record method any number of times, then {@link #close()}.
 *
 * <p>As in Flink 1.19+, there are two {@code open} methods. The runtime calls
 * {@link #open(OpenContext)}; unless overridden, that calls the deprecated
 * {@link #open(Configuration)} with an empty configuration. So a function written for older Flink,
 * overriding {@code open(Configuration)}, is opened as before, and one overriding
 * {@code open(OpenContext)} is opened through that. A function overriding both gets only
 * {@code open(OpenContext)}, unless that calls {@code super.open(openContext)}.
 */
public interface RichFunction extends Function {

    /**
     * The pre-1.19 initialization method, called once before the first record by the default
     * {@link #open(OpenContext)}. The configuration is always empty.
     *
     * @deprecated override {@link #open(OpenContext)} instead
     */
    @Deprecated
    default void open(Configuration parameters) throws Exception {}

    /**
     * Called once before the first record; the place to create state handles and metrics. By default
     * calls {@link #open(Configuration)} with an empty configuration.
     */
    default void open(OpenContext openContext) throws Exception {
        open(new Configuration());
    }

    /** Called once after the last record (also after a failure, to release resources). */
    default void close() throws Exception {}

    RuntimeContext getRuntimeContext();

    void setRuntimeContext(RuntimeContext runtimeContext);
}
