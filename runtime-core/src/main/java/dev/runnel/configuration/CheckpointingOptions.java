package dev.runnel.configuration;

import dev.runnel.core.execution.CheckpointingMode;
import java.time.Duration;

/**
 * The options of checkpoints and savepoints, with Flink 1.20's class, constant names, keys and defaults.
 * Flink 1.20 moved the checkpoint options under {@code execution.checkpointing.*}; the keys it used before
 * ({@code state.checkpoints.dir}, {@code state.savepoints.dir}, {@code state.checkpoints.num-retained},
 * {@code state.backend.incremental}, {@code state.storage.fs.memory-threshold}, ...) are read as deprecated
 * keys, so configurations written for either version work. Constants only.
 *
 * <p>The engine reads these through
 * {@link dev.runnel.runtime.checkpoint.CheckpointCoordinatorConfiguration#fromConfiguration}, which
 * validates them together; the API writes them through {@code CheckpointConfig}.
 *
 * <pre>
 *   key                                                       default                      old keys
 *   execution.checkpointing.interval                          (none: no checkpoints)
 *   execution.checkpointing.timeout                           10 min
 *   execution.checkpointing.min-pause                         0 ms
 *   execution.checkpointing.max-concurrent-checkpoints        1
 *   execution.checkpointing.tolerable-failed-checkpoints      (none: 0)
 *   execution.checkpointing.mode                              EXACTLY_ONCE
 *   execution.checkpointing.externalized-checkpoint-retention NO_EXTERNALIZED_CHECKPOINTS
 *   execution.checkpointing.unaligned.enabled                 false                        execution.checkpointing.unaligned
 *   execution.checkpointing.aligned-checkpoint-timeout        0 ms                         execution.checkpointing.alignment-timeout
 *   execution.checkpointing.storage                           (none)                       state.checkpoint-storage
 *   execution.checkpointing.dir                               (none)                       state.checkpoints.dir
 *   execution.checkpointing.savepoint-dir                     (none)                       state.savepoints.dir
 *   execution.checkpointing.num-retained                      1                            state.checkpoints.num-retained
 *   execution.checkpointing.incremental                       false                        state.backend.incremental
 *   execution.checkpointing.data-inline-threshold             20 kb                        state.storage.fs.memory-threshold
 * </pre>
 */
public final class CheckpointingOptions {

    /** Checkpoints are triggered no more often than this; Flink rejects intervals below it. */
    public static final Duration MINIMAL_CHECKPOINT_INTERVAL = Duration.ofMillis(10);

    /**
     * How often checkpoints are triggered. Absent, zero or negative (Flink's older {@code -1}): the job
     * takes no periodic checkpoints. Otherwise at least {@link #MINIMAL_CHECKPOINT_INTERVAL}.
     */
    public static final ConfigOption<Duration> CHECKPOINTING_INTERVAL = ConfigOptions
            .key("execution.checkpointing.interval")
            .durationType()
            .noDefaultValue()
            .withDescription("The interval in which checkpoints are periodically triggered; unset for no checkpoints. "
                    + "Triggering may be delayed by max-concurrent-checkpoints and min-pause.");

    /** How long a checkpoint may take before it is aborted. */
    public static final ConfigOption<Duration> CHECKPOINTING_TIMEOUT = ConfigOptions
            .key("execution.checkpointing.timeout")
            .durationType()
            .defaultValue(Duration.ofMinutes(10))
            .withDescription("The maximum time a checkpoint may take before it is discarded.");

    /** The least time between the end of one checkpoint and the start of the next. */
    public static final ConfigOption<Duration> MIN_PAUSE_BETWEEN_CHECKPOINTS = ConfigOptions
            .key("execution.checkpointing.min-pause")
            .durationType()
            .defaultValue(Duration.ZERO)
            .withDescription("The minimal pause between the end of one checkpoint and the start of the next.");

    /** How many checkpoints may be in progress at once. */
    public static final ConfigOption<Integer> MAX_CONCURRENT_CHECKPOINTS = ConfigOptions
            .key("execution.checkpointing.max-concurrent-checkpoints")
            .intType()
            .defaultValue(1)
            .withDescription("The maximum number of checkpoint attempts that may be in progress at the same time.");

    /** How many consecutive checkpoint failures the job tolerates before it fails; absent means 0. */
    public static final ConfigOption<Integer> TOLERABLE_FAILURE_NUMBER = ConfigOptions
            .key("execution.checkpointing.tolerable-failed-checkpoints")
            .intType()
            .noDefaultValue()
            .withDescription("The number of consecutive checkpoint failures tolerated before the job fails; "
                    + "unset means 0.");

    /** Exactly-once (aligned barriers) or at-least-once. */
    public static final ConfigOption<CheckpointingMode> CHECKPOINTING_CONSISTENCY_MODE = ConfigOptions
            .key("execution.checkpointing.mode")
            .enumType(CheckpointingMode.class)
            .defaultValue(CheckpointingMode.EXACTLY_ONCE)
            .withDescription("The checkpointing mode: EXACTLY_ONCE or AT_LEAST_ONCE.");

    /** Whether checkpoints outlive the job, and whether cancelling deletes them. */
    public static final ConfigOption<ExternalizedCheckpointRetention> EXTERNALIZED_CHECKPOINT_RETENTION =
            ConfigOptions.key("execution.checkpointing.externalized-checkpoint-retention")
                    .enumType(ExternalizedCheckpointRetention.class)
                    .defaultValue(ExternalizedCheckpointRetention.NO_EXTERNALIZED_CHECKPOINTS)
                    .withDescription("What happens to retained checkpoints when the job ends: DELETE_ON_CANCELLATION, "
                            + "RETAIN_ON_CANCELLATION or NO_EXTERNALIZED_CHECKPOINTS.");

    /** Whether barriers may overtake in-flight data (unaligned checkpoints); exactly-once only. */
    public static final ConfigOption<Boolean> ENABLE_UNALIGNED = ConfigOptions
            .key("execution.checkpointing.unaligned.enabled")
            .booleanType()
            .defaultValue(false)
            .withDeprecatedKeys("execution.checkpointing.unaligned")
            .withDescription("Whether exactly-once checkpoints are unaligned: barriers overtake buffered records, "
                    + "which become part of the checkpoint.");

    /**
     * With unaligned checkpoints only: 0 (the default) starts every checkpoint unaligned; a positive value
     * starts it aligned, and a task whose alignment has lasted longer than this since the checkpoint started
     * switches it to unaligned (persists what is still in flight and forwards the barrier ahead of the data).
     */
    public static final ConfigOption<Duration> ALIGNED_CHECKPOINT_TIMEOUT = ConfigOptions
            .key("execution.checkpointing.aligned-checkpoint-timeout")
            .durationType()
            .defaultValue(Duration.ZERO)
            .withDeprecatedKeys("execution.checkpointing.alignment-timeout")
            .withDescription("Only relevant if execution.checkpointing.unaligned.enabled is enabled. If timeout is 0,"
                    + " checkpoints always start unaligned. If timeout has a positive value, checkpoints start aligned;"
                    + " if during checkpointing the checkpoint start delay exceeds this timeout, alignment times out"
                    + " and the checkpoint barrier starts working as an unaligned checkpoint barrier.");

    /** Where checkpoints go: {@code jobmanager} (memory) or {@code filesystem}; with a directory, filesystem. */
    public static final ConfigOption<String> CHECKPOINT_STORAGE = ConfigOptions
            .key("execution.checkpointing.storage")
            .stringType()
            .noDefaultValue()
            .withDeprecatedKeys("state.checkpoint-storage")
            .withDescription("The checkpoint storage: 'jobmanager' or 'filesystem'. Unset: 'filesystem' if "
                    + "execution.checkpointing.dir is set, else 'jobmanager'.");

    /** The directory (a URI or path) checkpoints are written under. */
    public static final ConfigOption<String> CHECKPOINTS_DIRECTORY = ConfigOptions
            .key("execution.checkpointing.dir")
            .stringType()
            .noDefaultValue()
            .withDeprecatedKeys("state.checkpoints.dir", "state.backend.fs.checkpointdir")
            .withDescription("The directory for the data files and metadata of checkpoints; it must be reachable "
                    + "from every process of the job.");

    /** The default directory of savepoints. */
    public static final ConfigOption<String> SAVEPOINT_DIRECTORY = ConfigOptions
            .key("execution.checkpointing.savepoint-dir")
            .stringType()
            .noDefaultValue()
            .withDeprecatedKeys("state.savepoints.dir", "savepoints.state.backend.fs.dir")
            .withDescription("The default directory for savepoints.");

    /** How many completed checkpoints are kept. */
    public static final ConfigOption<Integer> MAX_RETAINED_CHECKPOINTS = ConfigOptions
            .key("execution.checkpointing.num-retained")
            .intType()
            .defaultValue(1)
            .withDeprecatedKeys("state.checkpoints.num-retained")
            .withDescription("The maximum number of completed checkpoints to retain.");

    /** Whether a store writes only what changed since the last checkpoint, where it can. */
    public static final ConfigOption<Boolean> INCREMENTAL_CHECKPOINTS = ConfigOptions
            .key("execution.checkpointing.incremental")
            .booleanType()
            .defaultValue(false)
            .withDeprecatedKeys("state.backend.incremental")
            .withDescription("Whether state backends write incremental checkpoints where they can.");

    /** State chunks smaller than this are stored inline in the checkpoint's metadata rather than in a file. */
    public static final ConfigOption<MemorySize> FS_SMALL_FILE_THRESHOLD = ConfigOptions
            .key("execution.checkpointing.data-inline-threshold")
            .memoryType()
            .defaultValue(MemorySize.ofKibiBytes(20))
            .withDeprecatedKeys("state.storage.fs.memory-threshold", "state.backend.fs.memory-threshold")
            .withDescription("The minimum size of state data files; smaller state chunks are stored inline in the "
                    + "checkpoint metadata file (at most 1 mb).");

    private CheckpointingOptions() {}
}
