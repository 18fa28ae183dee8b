package dev.runnel.api.common;

/**
 * How a job is executed, set with {@code env.setRuntimeMode(...)} or {@code execution.runtime-mode}
 * (see {@code dev.runnel.configuration.ExecutionOptions#RUNTIME_MODE}).
 *
 * <ul>
 *   <li>{@link #STREAMING}: results are emitted continuously (rolling aggregations emit every update,
 *       windows fire as watermarks advance).
 *   <li>{@link #BATCH}: for bounded input only; keyed aggregations and windows emit only their final
 *       results when the input ends. Watermarks inside the data are ignored; every timer fires at the
 *       end of the input.
 *   <li>{@link #AUTOMATIC}: {@code BATCH} if every source is bounded, {@code STREAMING} otherwise.
 * </ul>
 */
public enum RuntimeExecutionMode {
    STREAMING,
    BATCH,
    AUTOMATIC
}
