package dev.runnel.configuration;

/**
 * Options of BATCH execution, at Flink's {@code BatchExecutionOptions} path and with its keys. They steer the
 * adaptive parallelism of BATCH jobs: every exchange is blocking, and a vertex whose parallelism the job did not
 * set runs with as many subtasks as the bytes it consumes call for, decided when its input is complete.
 */
public final class BatchExecutionOptions {

    /** {@code execution.batch.adaptive.auto-parallelism.enabled}: whether BATCH jobs decide parallelism from data. */
    public static final ConfigOption<Boolean> ADAPTIVE_AUTO_PARALLELISM_ENABLED = ConfigOption.booleanOption(
            "execution.batch.adaptive.auto-parallelism.enabled", true,
            "Whether a BATCH job decides the parallelism of each operator whose parallelism it did not set from the"
                    + " data volume the operator consumes, when that input is complete.");

    /** {@code execution.batch.adaptive.auto-parallelism.min-parallelism}: the lower bound of decided parallelism. */
    public static final ConfigOption<Integer> ADAPTIVE_AUTO_PARALLELISM_MIN_PARALLELISM = ConfigOption.intOption(
            "execution.batch.adaptive.auto-parallelism.min-parallelism", 1,
            "The lower bound of the parallelism decided adaptively.");

    /**
     * {@code execution.batch.adaptive.auto-parallelism.max-parallelism}: the upper bound of decided parallelism;
     * unset, the job's default parallelism ({@code parallelism.default} or {@code setParallelism}) is.
     */
    public static final ConfigOption<Integer> ADAPTIVE_AUTO_PARALLELISM_MAX_PARALLELISM = ConfigOptions
            .key("execution.batch.adaptive.auto-parallelism.max-parallelism").intType().noDefaultValue()
            .withDescription("The upper bound of the parallelism decided adaptively; the default parallelism when"
                    + " unset.");

    /** {@code execution.batch.adaptive.auto-parallelism.avg-data-volume-per-task}: the bytes one subtask should consume. */
    public static final ConfigOption<MemorySize> ADAPTIVE_AUTO_PARALLELISM_AVG_DATA_VOLUME_PER_TASK =
            ConfigOption.memorySizeOption("execution.batch.adaptive.auto-parallelism.avg-data-volume-per-task",
                    MemorySize.ofMebiBytes(16), "The data volume each subtask of an adaptively scaled operator is"
                            + " meant to consume; skewed keys or the upper bound can make some consume more.");

    /**
     * {@code execution.batch.adaptive.auto-parallelism.default-source-parallelism}: the parallelism of sources the
     * job did not give one; unset, the max-parallelism option, then the default parallelism.
     */
    public static final ConfigOption<Integer> ADAPTIVE_AUTO_PARALLELISM_DEFAULT_SOURCE_PARALLELISM = ConfigOptions
            .key("execution.batch.adaptive.auto-parallelism.default-source-parallelism").intType().noDefaultValue()
            .withDescription("The parallelism of sources whose parallelism the job did not set; unset, the"
                    + " max-parallelism option applies, and without it the default parallelism.");

    private BatchExecutionOptions() {}
}
