package dev.runnel.streaming.api.environment;

import dev.runnel.configuration.CheckpointingOptions;
import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.ExternalizedCheckpointRetention;
import dev.runnel.core.execution.CheckpointingMode;
import dev.runnel.core.fs.Path;
import java.io.Serializable;
import java.net.URI;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * Flink's checkpoint settings of a job ({@code env.getCheckpointConfig()}), with Flink 1.20's getters and
 * setters. It keeps no state of its own: every setter writes the Flink key into the configuration it
 * wraps (for {@link StreamExecutionEnvironment#getCheckpointConfig()}, the environment's, which becomes
 * the job graph's), and every getter reads it back, so a setting made here, in {@code config.yaml} or
 * with {@code Configuration.set(CheckpointingOptions..., ...)} is the same setting. The engine reads it
 * as {@link dev.runnel.runtime.checkpoint.CheckpointCoordinatorConfiguration}.
 *
 * <pre>{@code
 * env.enableCheckpointing(10_000);                                  // execution.checkpointing.interval: 10 s
 * env.getCheckpointConfig().setMinPauseBetweenCheckpoints(500);      // execution.checkpointing.min-pause: 500 ms
 * env.getCheckpointConfig().setCheckpointStorage("file:///ckpts");  // execution.checkpointing.dir
 * env.getCheckpointConfig().setExternalizedCheckpointRetention(
 *         ExternalizedCheckpointRetention.RETAIN_ON_CANCELLATION);
 * }</pre>
 *
 * <p>Setters check their argument as Flink's do and throw {@link IllegalArgumentException} naming the value.
 * Not thread-safe, like the environment; configure a job from one thread.
 */
public class CheckpointConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The shortest interval and timeout Flink accepts, in milliseconds. */
    public static final long MINIMAL_CHECKPOINT_TIME = CheckpointingOptions.MINIMAL_CHECKPOINT_INTERVAL.toMillis();

    /** @deprecated read {@link CheckpointingOptions#CHECKPOINTING_CONSISTENCY_MODE}'s default instead. */
    @Deprecated
    public static final dev.runnel.streaming.api.CheckpointingMode DEFAULT_MODE =
            dev.runnel.streaming.api.CheckpointingMode.EXACTLY_ONCE;

    /** @deprecated read {@link CheckpointingOptions#CHECKPOINTING_TIMEOUT}'s default instead. */
    @Deprecated
    public static final long DEFAULT_TIMEOUT = CheckpointingOptions.CHECKPOINTING_TIMEOUT.defaultValue().toMillis();

    /** @deprecated read {@link CheckpointingOptions#MIN_PAUSE_BETWEEN_CHECKPOINTS}'s default instead. */
    @Deprecated
    public static final long DEFAULT_MIN_PAUSE_BETWEEN_CHECKPOINTS =
            CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS.defaultValue().toMillis();

    /** @deprecated read {@link CheckpointingOptions#MAX_CONCURRENT_CHECKPOINTS}'s default instead. */
    @Deprecated
    public static final int DEFAULT_MAX_CONCURRENT_CHECKPOINTS =
            CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS.defaultValue();

    /** The options a {@link #configure} call takes over. */
    private static final List<ConfigOption<?>> CHECKPOINT_OPTIONS = List.of(CheckpointingOptions.CHECKPOINTING_INTERVAL,
            CheckpointingOptions.CHECKPOINTING_TIMEOUT, CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS,
            CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS, CheckpointingOptions.TOLERABLE_FAILURE_NUMBER,
            CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE, CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
            CheckpointingOptions.ENABLE_UNALIGNED, CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT,
            CheckpointingOptions.CHECKPOINT_STORAGE,
            CheckpointingOptions.CHECKPOINTS_DIRECTORY, CheckpointingOptions.SAVEPOINT_DIRECTORY,
            CheckpointingOptions.MAX_RETAINED_CHECKPOINTS, CheckpointingOptions.INCREMENTAL_CHECKPOINTS,
            CheckpointingOptions.FS_SMALL_FILE_THRESHOLD);

    private final Configuration configuration;

    /** A view that reads and writes {@code configuration} itself (not a copy). */
    public CheckpointConfig(Configuration configuration) {
        this.configuration = Objects.requireNonNull(configuration, "configuration");
    }

    /** Settings of their own, all defaults: checkpointing disabled. */
    public CheckpointConfig() {
        this(new Configuration());
    }

    /** A copy of {@code other}'s settings, independent of it. */
    public CheckpointConfig(CheckpointConfig other) {
        this(Objects.requireNonNull(other, "other").configuration.copy());
    }

    // ------------------------------------------------------------------ interval and mode

    /** Whether periodic checkpoints are on: an interval is set and positive. */
    public boolean isCheckpointingEnabled() {
        return getCheckpointInterval() > 0;
    }

    /** Milliseconds between checkpoints; -1 when checkpointing is disabled. */
    public long getCheckpointInterval() {
        Duration interval = configuration.get(CheckpointingOptions.CHECKPOINTING_INTERVAL);
        return interval == null || interval.isNegative() || interval.isZero() ? -1 : interval.toMillis();
    }

    /** Turns periodic checkpoints on, every {@code checkpointInterval} ms; at least 10 ms ({@link #MINIMAL_CHECKPOINT_TIME}). */
    public void setCheckpointInterval(long checkpointInterval) {
        if (checkpointInterval < MINIMAL_CHECKPOINT_TIME) {
            throw new IllegalArgumentException(String.format(
                    "The checkpoint interval must be at least %d ms, was %d ms", MINIMAL_CHECKPOINT_TIME,
                    checkpointInterval));
        }
        configuration.set(CheckpointingOptions.CHECKPOINTING_INTERVAL, Duration.ofMillis(checkpointInterval));
    }

    public CheckpointingMode getCheckpointingConsistencyMode() {
        return configuration.get(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE);
    }

    public void setCheckpointingConsistencyMode(CheckpointingMode checkpointingMode) {
        configuration.set(CheckpointingOptions.CHECKPOINTING_CONSISTENCY_MODE,
                Objects.requireNonNull(checkpointingMode, "checkpointingMode"));
    }

    /** @deprecated use {@link #getCheckpointingConsistencyMode()}. */
    @Deprecated
    public dev.runnel.streaming.api.CheckpointingMode getCheckpointingMode() {
        return dev.runnel.streaming.api.CheckpointingMode.convertFromCheckpointingMode(getCheckpointingConsistencyMode());
    }

    /** @deprecated use {@link #setCheckpointingConsistencyMode(CheckpointingMode)}. */
    @Deprecated
    public void setCheckpointingMode(dev.runnel.streaming.api.CheckpointingMode checkpointingMode) {
        setCheckpointingConsistencyMode(dev.runnel.streaming.api.CheckpointingMode.convertToCheckpointingMode(
                Objects.requireNonNull(checkpointingMode, "checkpointingMode")));
    }

    // ------------------------------------------------------------------ pacing and failures

    /** Milliseconds after which a checkpoint in progress is aborted. */
    public long getCheckpointTimeout() {
        return configuration.get(CheckpointingOptions.CHECKPOINTING_TIMEOUT).toMillis();
    }

    /** At least 10 ms ({@link #MINIMAL_CHECKPOINT_TIME}). */
    public void setCheckpointTimeout(long checkpointTimeout) {
        if (checkpointTimeout < MINIMAL_CHECKPOINT_TIME) {
            throw new IllegalArgumentException(String.format(
                    "The checkpoint timeout must be at least %d ms, was %d ms", MINIMAL_CHECKPOINT_TIME,
                    checkpointTimeout));
        }
        configuration.set(CheckpointingOptions.CHECKPOINTING_TIMEOUT, Duration.ofMillis(checkpointTimeout));
    }

    public long getMinPauseBetweenCheckpoints() {
        return configuration.get(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS).toMillis();
    }

    /** Milliseconds from the end of one checkpoint to the start of the next, at least; 0 or more. */
    public void setMinPauseBetweenCheckpoints(long minPauseBetweenCheckpoints) {
        if (minPauseBetweenCheckpoints < 0) {
            throw new IllegalArgumentException(String.format(
                    "The pause between checkpoints must be 0 ms or more, was %d ms", minPauseBetweenCheckpoints));
        }
        configuration.set(CheckpointingOptions.MIN_PAUSE_BETWEEN_CHECKPOINTS,
                Duration.ofMillis(minPauseBetweenCheckpoints));
    }

    public int getMaxConcurrentCheckpoints() {
        return configuration.get(CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS);
    }

    /** How many checkpoints may be in progress at once; at least 1. */
    public void setMaxConcurrentCheckpoints(int maxConcurrentCheckpoints) {
        if (maxConcurrentCheckpoints < 1) {
            throw new IllegalArgumentException(String.format(
                    "The maximum number of concurrent checkpoints must be at least 1, was %d",
                    maxConcurrentCheckpoints));
        }
        configuration.set(CheckpointingOptions.MAX_CONCURRENT_CHECKPOINTS, maxConcurrentCheckpoints);
    }

    /** Consecutive checkpoint failures tolerated before the job fails; 0 when not set. */
    public int getTolerableCheckpointFailureNumber() {
        Integer n = configuration.get(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER);
        return n == null ? 0 : n;
    }

    /** 0 (the default) fails the job on the first failed checkpoint. */
    public void setTolerableCheckpointFailureNumber(int tolerableCheckpointFailureNumber) {
        if (tolerableCheckpointFailureNumber < 0) {
            throw new IllegalArgumentException(String.format(
                    "The number of tolerable checkpoint failures must be 0 or more, was %d",
                    tolerableCheckpointFailureNumber));
        }
        configuration.set(CheckpointingOptions.TOLERABLE_FAILURE_NUMBER, tolerableCheckpointFailureNumber);
    }

    // ------------------------------------------------------------------ unaligned checkpoints

    public void enableUnalignedCheckpoints() {
        enableUnalignedCheckpoints(true);
    }

    /** Whether exactly-once checkpoints may let barriers overtake buffered records. */
    public void enableUnalignedCheckpoints(boolean enabled) {
        configuration.set(CheckpointingOptions.ENABLE_UNALIGNED, enabled);
    }

    public boolean isUnalignedCheckpointsEnabled() {
        return configuration.get(CheckpointingOptions.ENABLE_UNALIGNED);
    }

    /**
     * Only relevant with unaligned checkpoints enabled ({@link CheckpointingOptions#ALIGNED_CHECKPOINT_TIMEOUT}):
     * {@link Duration#ZERO} starts every checkpoint unaligned; a positive timeout starts it aligned, and a task
     * whose alignment lasts longer than that (counted from the checkpoint's start) switches it to unaligned.
     *
     * @throws IllegalArgumentException if {@code alignedCheckpointTimeout} is null or negative
     */
    public void setAlignedCheckpointTimeout(Duration alignedCheckpointTimeout) {
        if (alignedCheckpointTimeout == null || alignedCheckpointTimeout.isNegative()) {
            throw new IllegalArgumentException("The aligned checkpoint timeout must be zero or positive (0 starts"
                    + " checkpoints unaligned), was " + alignedCheckpointTimeout);
        }
        configuration.set(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT, alignedCheckpointTimeout);
    }

    /** The aligned checkpoint timeout, as set here or through {@code execution.checkpointing.aligned-checkpoint-timeout}. */
    public Duration getAlignedCheckpointTimeout() {
        return configuration.get(CheckpointingOptions.ALIGNED_CHECKPOINT_TIMEOUT);
    }

    // ------------------------------------------------------------------ retention

    public ExternalizedCheckpointRetention getExternalizedCheckpointRetention() {
        return configuration.get(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION);
    }

    /** Whether checkpoints outlive the job, and whether cancelling it deletes them. */
    public void setExternalizedCheckpointRetention(ExternalizedCheckpointRetention retention) {
        configuration.set(CheckpointingOptions.EXTERNALIZED_CHECKPOINT_RETENTION,
                Objects.requireNonNull(retention, "retention"));
    }

    public boolean isExternalizedCheckpointsEnabled() {
        return getExternalizedCheckpointRetention().isExternalized();
    }

    /** @deprecated use {@link #setExternalizedCheckpointRetention}. */
    @Deprecated
    public void enableExternalizedCheckpoints(ExternalizedCheckpointCleanup cleanupMode) {
        setExternalizedCheckpointCleanup(cleanupMode);
    }

    /** @deprecated use {@link #setExternalizedCheckpointRetention}. */
    @Deprecated
    public void setExternalizedCheckpointCleanup(ExternalizedCheckpointCleanup cleanupMode) {
        setExternalizedCheckpointRetention(
                Objects.requireNonNull(cleanupMode, "cleanupMode").toExternalizedCheckpointRetention());
    }

    /** @deprecated use {@link #getExternalizedCheckpointRetention()}. */
    @Deprecated
    public ExternalizedCheckpointCleanup getExternalizedCheckpointCleanup() {
        return ExternalizedCheckpointCleanup.valueOf(getExternalizedCheckpointRetention().name());
    }

    // ------------------------------------------------------------------ storage

    /**
     * Writes checkpoints under {@code checkpointDirectory} (a path or URI such as {@code file:///ckpts}): sets
     * {@code execution.checkpointing.dir} and {@code execution.checkpointing.storage: filesystem}.
     *
     * @deprecated as in Flink 1.20, set {@link CheckpointingOptions#CHECKPOINTS_DIRECTORY} instead; kept
     *     because most jobs still call it
     */
    @Deprecated
    public void setCheckpointStorage(String checkpointDirectory) {
        Objects.requireNonNull(checkpointDirectory, "checkpointDirectory");
        if (checkpointDirectory.isBlank()) {
            throw new IllegalArgumentException("The checkpoint directory must not be blank");
        }
        configuration.set(CheckpointingOptions.CHECKPOINTS_DIRECTORY, checkpointDirectory.trim());
        configuration.set(CheckpointingOptions.CHECKPOINT_STORAGE, "filesystem");
    }

    /** @deprecated see {@link #setCheckpointStorage(String)}. */
    @Deprecated
    public void setCheckpointStorage(URI checkpointDirectory) {
        setCheckpointStorage(Objects.requireNonNull(checkpointDirectory, "checkpointDirectory").toString());
    }

    /** @deprecated see {@link #setCheckpointStorage(String)}. */
    @Deprecated
    public void setCheckpointStorage(Path checkpointDirectory) {
        setCheckpointStorage(Objects.requireNonNull(checkpointDirectory, "checkpointDirectory").toUri());
    }

    // ------------------------------------------------------------------ configuration

    /**
     * Takes over every checkpoint option {@code source} sets (under Flink's current or older keys), leaving the
     * others as they are, as Flink's {@code configure(ReadableConfig)}.
     */
    public void configure(Configuration source) {
        Objects.requireNonNull(source, "source");
        for (ConfigOption<?> option : CHECKPOINT_OPTIONS) {
            copy(option, source);
        }
    }

    private <T> void copy(ConfigOption<T> option, Configuration source) {
        source.getOptional(option).ifPresent(value -> configuration.set(option, value));
    }

    /** The configuration these settings live in (the environment's, for its checkpoint config); not a copy. */
    public Configuration toConfiguration() {
        return configuration;
    }

    @Override
    public String toString() {
        return "CheckpointConfig{interval=" + getCheckpointInterval() + " ms, timeout=" + getCheckpointTimeout()
                + " ms, minPause=" + getMinPauseBetweenCheckpoints() + " ms, maxConcurrent="
                + getMaxConcurrentCheckpoints() + ", tolerableFailures=" + getTolerableCheckpointFailureNumber()
                + ", mode=" + getCheckpointingConsistencyMode() + ", retention="
                + getExternalizedCheckpointRetention() + "}";
    }

    /**
     * What happens to retained checkpoints when the job ends, at its pre-1.20 Flink path. An immutable enum.
     *
     * @deprecated use {@link ExternalizedCheckpointRetention}; the constants have the same names and meaning.
     */
    @Deprecated
    public enum ExternalizedCheckpointCleanup {
        DELETE_ON_CANCELLATION,
        RETAIN_ON_CANCELLATION,
        NO_EXTERNALIZED_CHECKPOINTS;

        /** Whether a cancelled job's checkpoints are deleted. */
        public boolean deleteOnCancellation() {
            return this != RETAIN_ON_CANCELLATION;
        }

        /** The same setting as Flink 1.20's enum. */
        public ExternalizedCheckpointRetention toExternalizedCheckpointRetention() {
            return ExternalizedCheckpointRetention.valueOf(name());
        }
    }
}
