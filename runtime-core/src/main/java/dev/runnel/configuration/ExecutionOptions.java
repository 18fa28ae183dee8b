package dev.runnel.configuration;

import dev.runnel.api.common.RuntimeExecutionMode;

/**
 * Options of how a job executes, at Flink's {@code ExecutionOptions} path. Only the options Runnel
 * reads are here.
 */
public final class ExecutionOptions {

    /**
     * {@code execution.runtime-mode}: STREAMING (default), BATCH or AUTOMATIC, case-insensitive. See
     * {@link RuntimeExecutionMode}.
     */
    public static final ConfigOption<RuntimeExecutionMode> RUNTIME_MODE = ConfigOption.enumOption(
            "execution.runtime-mode", RuntimeExecutionMode.class, RuntimeExecutionMode.STREAMING,
            "Runtime execution mode of DataStream programs: STREAMING, BATCH or AUTOMATIC "
                    + "(BATCH when every source is bounded).");

    private ExecutionOptions() {}
}
