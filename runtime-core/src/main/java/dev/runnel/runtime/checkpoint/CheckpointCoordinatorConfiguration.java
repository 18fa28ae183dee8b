package dev.runnel.runtime.checkpoint;

import dev.runnel.configuration.CheckpointingOptions;
import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.ExternalizedCheckpointRetention;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.configuration.MemorySize;
import dev.runnel.core.execution.CheckpointingMode;
import java.io.Serializable;
import java.time.Duration;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * How a job checkpoints, as the checkpoint coordinator reads it: every checkpoint setting of the job's
 * {@link Configuration} ({@link CheckpointingOptions}), typed, defaulted and checked together once, so the
 * engine never parses keys itself. Build it with {@link #fromConfiguration}.
 *
 * <p>Periodic checkpoints are off when {@code execution.checkpointing.interval} is unset, zero or negative;
 * then {@link #isCheckpointingEnabled()} is false and {@link #getCheckpointInterval()} is
 * {@link #DISABLED_CHECKPOINT_INTERVAL} ({@code Long.MAX_VALUE}, as in Flink, so that code computing "the
 * next trigger time" needs no special case). All durations are in milliseconds.
 *
 * <p>Immutable, serializable and thread-safe. The directories are null when not configured; nothing else is.
 */
public final class CheckpointCoordinatorConfiguration implements Serializable {

    private static final long serialVersionUID = 1L;

    /** {@link #getCheckpointInterval()} of a job without periodic checkpoints. */
    public static final long DISABLED_CHECKPOINT_INTERVAL = Long.MAX_VALUE;

    /** The largest {@code execution.checkpointing.data-inline-threshold} Flink accepts. */
    public static final MemorySize MAX_INLINE_THRESHOLD = MemorySize.ofMebiBytes(1);

    /** {@code execution.checkpointing.storage} names Runnel knows. */
    public static final String STORAGE_JOBMANAGER = "jobmanager";
    public static final String STORAGE_FILESYSTEM = "filesystem";

    private final long checkpointInterval;
    private final long checkpointTimeout;
    private final long minPauseBetweenCheckpoints;
    private final int maxConcurrentCheckpoints;
    private final int tolerableCheckpointFailureNumber;
    private final CheckpointingMode checkpointingMode;
    private final boolean unalignedCheckpointsEnabled;
    private final long alignedCheckpointTimeout;
    private final ExternalizedCheckpointRetention externalizedCheckpointRetention;
    private final String checkpointStorage;
    private final String checkpointDirectory;
    private final String savepointDirectory;
    private final int maxRetainedCheckpoints;
    private final boolean incrementalCheckpoints;
    private final long inlineThresholdBytes;

    private CheckpointCoordinatorConfiguration(long checkpointInterval, long checkpointTimeout,
            long minPauseBetweenCheckpoints, int maxConcurrentCheckpoints, int tolerableCheckpointFailureNumber,
            CheckpointingMode checkpointingMode, boolean unalignedCheckpointsEnabled, long alignedCheckpointTimeout,
            ExternalizedCheckpointRetention externalizedCheckpointRetention, String checkpointStorage,
            String checkpointDirectory, String savepointDirectory, int maxRetainedCheckpoints,
            boolean incrementalCheckpoints, long inlineThresholdBytes) {
        this.checkpointInterval = checkpointInterval;
        this.checkpointTimeout = checkpointTimeout;
        this.minPauseBetweenCheckpoints = minPauseBetweenCheckpoints;
        this.maxConcurrentCheckpoints = maxConcurrentCheckpoints;
        this.tolerableCheckpointFailureNumber = tolerableCheckpointFailureNumber;
        this.checkpointingMode = checkpointingMode;
        this.unalignedCheckpointsEnabled = unalignedCheckpointsEnabled;
        this.alignedCheckpointTimeout = alignedCheckpointTimeout;
        this.externalizedCheckpointRetention = externalizedCheckpointRetention;
        this.checkpointStorage = checkpointStorage;
        this.checkpointDirectory = checkpointDirectory;
        this.savepointDirectory = savepointDirectory;
        this.maxRetainedCheckpoints = maxRetainedCheckpoints;
        this.incrementalCheckpoints = incrementalCheckpoints;
        this.inlineThresholdBytes = inlineThresholdBytes;
    }

    /**
     * The checkpoint settings of {@code configuration}, with Flink's defaults for what is unset and Flink's
     * older key names read too ({@code state.checkpoints.dir}, ...).
     *
     * @throws IllegalConfigurationException if a value does not parse or is out of range; the message names
     *     the key as written in the configuration, the value, and what would be accepted
     */
    public static CheckpointCoordinatorConfiguration fromConfiguration(Configuration configuration) {
        Objects.requireNonNull(configuration, "configuration");
        Reader r = new Reader(configuration);

        long interval = DISABLED_CHECKPOINT_INTERVAL;
        Duration configuredInterval = r.get(CheckpointingOptions.CHECKPOINTING_INTERVAL);
        if (configuredInterval != null && !configuredInterval.isNegative() && !configuredInterval.isZero()) {
            long minimum = CheckpointingOptions.MINIMAL_CHECKPOINT_INTERVAL.toMillis();
            interval = configuredInterval.toMillis();
            if (interval < minimum) {
                throw r.invalid(CheckpointingOptions.CHECKPOINTING_INTERVAL, String.format(
                        "the checkpoint interval must be at least %d ms; leave it unset (or -1) for no checkpoints",
                        minimum));
            }
        }

        long timeout = r.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT).toMillis();
        long minimumTimeout = CheckpointingOptions.MINIMAL_CHECKPOINT_INTERVAL.toMillis();
        if (timeout < minimumTimeout) {
            throw r.invalid(CheckpointingOptions.CHECKPOINTING_TIMEOUT,
                    String.format("the checkpoint timeout must be at least %d ms", minimumTimeout));
        }

        Duration minPause = r.get(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS);
        if (minPause.isNegative()) {
            throw r.invalid(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS,
                    "the pause between checkpoints must be zero or positive, e.g. 0 ms or 500 ms");
        }

        int maxConcurrent = r.get(CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS);
        if (maxConcurrent < 1) {
            throw r.invalid(CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS,
                    "at least 1 checkpoint must be allowed in progress at a time");
        }

        Integer tolerable = r.get(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER);
        int tolerableFailures = tolerable == null ? 0 : tolerable;
        if (tolerableFailures < 0) {
            throw r.invalid(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER,
                    "the number of tolerated checkpoint failures must be 0 or more");
        }

        CheckpointingMode mode = r.get(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE);
        // As in Flink, asking for unaligned checkpoints in at-least-once mode is not an error: barriers are
        // never aligned in that mode, so there is nothing to unalign.
        boolean unaligned = r.get(CheckpointingOptions.ENABLE_UNALIGNED) && mode == CheckpointingMode.EXACTLY_ONCE;
        Duration alignedTimeout = r.get(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT);
        if (alignedTimeout.isNegative()) {
            throw r.invalid(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT,
                    "the aligned checkpoint timeout must be 0 (checkpoints start unaligned) or positive, e.g. 30 s");
        }

        String checkpointDirectory = blankToNull(r.get(CheckpointingOptions.CHECKPOINTS_DIRECTORY));
        String savepointDirectory = blankToNull(r.get(CheckpointingOptions.SAVEPOINT_DIRECTORY));
        String storage = resolveStorage(r, checkpointDirectory);

        int retained = r.get(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS);
        if (retained < 1) {
            throw r.invalid(CheckpointingOptions.MAX_RETAINED_CHECKPOINTS,
                    "at least 1 completed checkpoint must be retained");
        }

        MemorySize inline = r.get(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD);
        if (inline.compareTo(MAX_INLINE_THRESHOLD) > 0) {
            throw r.invalid(CheckpointingOptions.FS_SMALL_FILE_THRESHOLD,
                    "the inline threshold must be between 0 and 1 mb");
        }

        return new CheckpointCoordinatorConfiguration(interval, timeout, minPause.toMillis(), maxConcurrent,
                tolerableFailures, mode, unaligned, alignedTimeout.toMillis(), r.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION),
                storage, checkpointDirectory, savepointDirectory, retained,
                r.get(CheckpointingOptions.INCREMENTAL_CHECKPOINTS), inline.getBytes());
    }

    private static String resolveStorage(Reader r, String checkpointDirectory) {
        String configured = blankToNull(r.get(CheckpointingOptions.CHECKPOINT_STORAGE));
        if (configured == null) {
            return checkpointDirectory != null ? STORAGE_FILESYSTEM : STORAGE_JOBMANAGER;
        }
        String storage = configured.trim().toLowerCase(Locale.ROOT);
        if (!storage.equals(STORAGE_JOBMANAGER) && !storage.equals(STORAGE_FILESYSTEM)) {
            throw r.invalid(CheckpointingOptions.CHECKPOINT_STORAGE,
                    "expected 'jobmanager' or 'filesystem' (Runnel does not load checkpoint storage factories by "
                            + "class name)");
        }
        if (storage.equals(STORAGE_FILESYSTEM) && checkpointDirectory == null) {
            throw r.invalid(CheckpointingOptions.CHECKPOINT_STORAGE, String.format(
                    "'filesystem' checkpoint storage needs a directory: set '%s'",
                    CheckpointingOptions.CHECKPOINTS_DIRECTORY.key()));
        }
        return storage;
    }

    private static String blankToNull(String s) {
        return s == null || s.isBlank() ? null : s.trim();
    }

    /** Reads options, turning parse failures into {@link IllegalConfigurationException}s. */
    private static final class Reader {

        private final Configuration configuration;

        Reader(Configuration configuration) {
            this.configuration = configuration;
        }

        <T> T get(ConfigOption<T> option) {
            try {
                return configuration.get(option);
            } catch (IllegalArgumentException e) {
                throw new IllegalConfigurationException(e.getMessage(), e);
            }
        }

        /** "Invalid value 'v' for configuration option 'k': why", naming the key the value was read from. */
        IllegalConfigurationException invalid(ConfigOption<?> option, String why) {
            Map<String, String> values = configuration.toMap();
            String usedKey = option.key();
            if (!values.containsKey(usedKey)) {
                for (ConfigOption.FallbackKey fallback : option.fallbackKeys()) {
                    if (values.containsKey(fallback.key())) {
                        usedKey = fallback.key();
                        break;
                    }
                }
            }
            return new IllegalConfigurationException("Invalid value '%s' for configuration option '%s': %s.",
                    values.getOrDefault(usedKey, String.valueOf(option.defaultValue())), usedKey, why);
        }
    }

    // ------------------------------------------------------------------ values

    /** Whether the job takes periodic checkpoints. */
    public boolean isCheckpointingEnabled() {
        return checkpointInterval != DISABLED_CHECKPOINT_INTERVAL;
    }

    /** Milliseconds between two checkpoint triggers; {@link #DISABLED_CHECKPOINT_INTERVAL} when disabled. */
    public long getCheckpointInterval() {
        return checkpointInterval;
    }

    /** Milliseconds after which a checkpoint still in progress is aborted. */
    public long getCheckpointTimeout() {
        return checkpointTimeout;
    }

    /** Milliseconds between the end of one checkpoint and the trigger of the next, at least. */
    public long getMinPauseBetweenCheckpoints() {
        return minPauseBetweenCheckpoints;
    }

    public int getMaxConcurrentCheckpoints() {
        return maxConcurrentCheckpoints;
    }

    /** Consecutive checkpoint failures tolerated before the job fails; 0 fails it on the first. */
    public int getTolerableCheckpointFailureNumber() {
        return tolerableCheckpointFailureNumber;
    }

    public CheckpointingMode getCheckpointingMode() {
        return checkpointingMode;
    }

    /** Whether a task with several inputs aligns barriers (exactly-once) rather than passing them on. */
    public boolean isExactlyOnce() {
        return checkpointingMode == CheckpointingMode.EXACTLY_ONCE;
    }

    /** Whether unaligned checkpoints are asked for (and the mode is exactly-once, the only one they apply to). */
    public boolean isUnalignedCheckpointsEnabled() {
        return unalignedCheckpointsEnabled;
    }

    /**
     * Milliseconds after a checkpoint's start at which a task still aligning it switches to unaligned; 0: unaligned
     * from the start. Only used when {@link #isUnalignedCheckpointsEnabled()}.
     */
    public long getAlignedCheckpointTimeout() {
        return alignedCheckpointTimeout;
    }

    public ExternalizedCheckpointRetention getExternalizedCheckpointRetention() {
        return externalizedCheckpointRetention;
    }

    /** {@link #STORAGE_JOBMANAGER} or {@link #STORAGE_FILESYSTEM} (the latter whenever a directory is set). */
    public String getCheckpointStorage() {
        return checkpointStorage;
    }

    /** The checkpoint directory as configured (a path or URI); null if none. */
    public String getCheckpointDirectory() {
        return checkpointDirectory;
    }

    /** The default savepoint directory as configured; null if none. */
    public String getSavepointDirectory() {
        return savepointDirectory;
    }

    /** How many completed checkpoints are kept; at least 1. */
    public int getMaxRetainedCheckpoints() {
        return maxRetainedCheckpoints;
    }

    public boolean isIncrementalCheckpoints() {
        return incrementalCheckpoints;
    }

    /** State chunks smaller than this many bytes are stored inline in the checkpoint metadata. */
    public long getInlineThresholdBytes() {
        return inlineThresholdBytes;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckpointCoordinatorConfiguration that
                && checkpointInterval == that.checkpointInterval
                && checkpointTimeout == that.checkpointTimeout
                && minPauseBetweenCheckpoints == that.minPauseBetweenCheckpoints
                && maxConcurrentCheckpoints == that.maxConcurrentCheckpoints
                && tolerableCheckpointFailureNumber == that.tolerableCheckpointFailureNumber
                && checkpointingMode == that.checkpointingMode
                && unalignedCheckpointsEnabled == that.unalignedCheckpointsEnabled
                && alignedCheckpointTimeout == that.alignedCheckpointTimeout
                && externalizedCheckpointRetention == that.externalizedCheckpointRetention
                && checkpointStorage.equals(that.checkpointStorage)
                && Objects.equals(checkpointDirectory, that.checkpointDirectory)
                && Objects.equals(savepointDirectory, that.savepointDirectory)
                && maxRetainedCheckpoints == that.maxRetainedCheckpoints
                && incrementalCheckpoints == that.incrementalCheckpoints
                && inlineThresholdBytes == that.inlineThresholdBytes;
    }

    @Override
    public int hashCode() {
        return Objects.hash(checkpointInterval, checkpointTimeout, minPauseBetweenCheckpoints, maxConcurrentCheckpoints,
                tolerableCheckpointFailureNumber, checkpointingMode, unalignedCheckpointsEnabled,
                alignedCheckpointTimeout, externalizedCheckpointRetention, checkpointStorage, checkpointDirectory,
                savepointDirectory, maxRetainedCheckpoints, incrementalCheckpoints, inlineThresholdBytes);
    }

    @Override
    public String toString() {
        return "CheckpointCoordinatorConfiguration{interval="
                + (isCheckpointingEnabled() ? checkpointInterval + " ms" : "disabled")
                + ", timeout=" + checkpointTimeout + " ms, minPause=" + minPauseBetweenCheckpoints
                + " ms, maxConcurrent=" + maxConcurrentCheckpoints + ", tolerableFailures="
                + tolerableCheckpointFailureNumber + ", mode=" + checkpointingMode + ", unaligned="
                + unalignedCheckpointsEnabled + ", alignedCheckpointTimeout=" + alignedCheckpointTimeout
                + " ms, retention=" + externalizedCheckpointRetention + ", storage="
                + checkpointStorage + ", checkpointDir=" + checkpointDirectory + ", savepointDir="
                + savepointDirectory + ", retained=" + maxRetainedCheckpoints + ", incremental="
                + incrementalCheckpoints + ", inlineThreshold=" + inlineThresholdBytes + " bytes}";
    }
}
