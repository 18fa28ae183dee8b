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

    /**
     * {@code execution.sorted-inputs.enabled}: in BATCH, whether keyed operators read their input sorted by key
     * (and finish each key before the next, so results come in key order), as Flink's batch execution does.
     * Beyond {@link #SORTED_INPUTS_MEMORY} the sort spills to disk.
     */
    public static final ConfigOption<Boolean> SORT_INPUTS = ConfigOption.booleanOption(
            "execution.sorted-inputs.enabled", true,
            "In BATCH, whether a keyed operator reads its input sorted by key and finishes each key before the next.");

    /**
     * {@code execution.sorted-inputs.memory}: how many bytes of serialized records a subtask's BATCH key sort
     * holds before it writes a sorted run to disk (the runs are merged at the end).
     */
    public static final ConfigOption<MemorySize> SORTED_INPUTS_MEMORY = ConfigOption.memorySizeOption(
            "execution.sorted-inputs.memory", MemorySize.ofMebiBytes(128),
            "Serialized records a BATCH key sort keeps in memory per subtask before it spills a sorted run to disk.");

    private ExecutionOptions() {}
}
