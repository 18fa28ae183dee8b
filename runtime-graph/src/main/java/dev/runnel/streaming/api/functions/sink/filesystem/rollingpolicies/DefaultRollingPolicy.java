package dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies;

import dev.runnel.configuration.MemorySize;
import dev.runnel.streaming.api.functions.sink.filesystem.PartFileInfo;
import dev.runnel.streaming.api.functions.sink.filesystem.RollingPolicy;
import java.io.IOException;
import java.time.Duration;
import java.util.Objects;

/**
 * Rolls a part file when it reaches a size, when it is older than the rollover interval, or when
 * nothing was written to it for the inactivity interval. Defaults (as in Flink): 128 MB, 60 s, 60 s.
 * At a checkpoint it rolls only a part that is past the size; a smaller part stays in progress across
 * the checkpoint (its length is checkpointed, and it is resumed after a failure).
 *
 * <p>The size check runs before each record, so the record that takes a part past the size stays in
 * it. The time checks run at each bucket check of the writer (its processing-time timer), before each
 * record and at each non-final flush.
 *
 * <pre>{@code
 * DefaultRollingPolicy.builder()
 *         .withMaxPartSize(MemorySize.ofMebiBytes(64))
 *         .withRolloverInterval(Duration.ofMinutes(15))
 *         .withInactivityInterval(Duration.ofMinutes(5))
 *         .build()
 * }</pre>
 *
 * Immutable; serializable; thread-safe.
 *
 * @param <IN> the record type
 * @param <BucketID> the type of the bucket id
 */
public final class DefaultRollingPolicy<IN, BucketID> implements RollingPolicy<IN, BucketID> {

    private static final long serialVersionUID = 1L;

    public static final long DEFAULT_MAX_PART_SIZE = 128L * 1024 * 1024;
    public static final long DEFAULT_ROLLOVER_INTERVAL = 60_000L;
    public static final long DEFAULT_INACTIVITY_INTERVAL = 60_000L;

    private final long partSize;
    private final long rolloverInterval;
    private final long inactivityInterval;

    private DefaultRollingPolicy(long partSize, long rolloverInterval, long inactivityInterval) {
        this.partSize = partSize;
        this.rolloverInterval = rolloverInterval;
        this.inactivityInterval = inactivityInterval;
    }

    /** A builder starting from the defaults. */
    public static PolicyBuilder builder() {
        return new PolicyBuilder();
    }

    @Override
    public boolean shouldRollOnCheckpoint(PartFileInfo<BucketID> partFile) throws IOException {
        return partFile.getSize() > partSize;
    }

    @Override
    public boolean shouldRollOnEvent(PartFileInfo<BucketID> partFile, IN element) throws IOException {
        return partFile.getSize() >= partSize;
    }

    @Override
    public boolean shouldRollOnProcessingTime(PartFileInfo<BucketID> partFile, long currentTime) {
        return currentTime - partFile.getCreationTime() >= rolloverInterval
                || currentTime - partFile.getLastUpdateTime() >= inactivityInterval;
    }

    /** The size in bytes at which a part rolls. */
    public long getMaxPartSize() {
        return partSize;
    }

    /** The age in milliseconds at which a part rolls. */
    public long getRolloverInterval() {
        return rolloverInterval;
    }

    /** The milliseconds without records after which a part rolls. */
    public long getInactivityInterval() {
        return inactivityInterval;
    }

    @Override
    public String toString() {
        return "DefaultRollingPolicy{maxPartSize=" + partSize + " bytes, rolloverInterval=" + rolloverInterval
                + " ms, inactivityInterval=" + inactivityInterval + " ms}";
    }

    /** Builds a {@link DefaultRollingPolicy}. Not thread-safe. */
    public static final class PolicyBuilder {
        private long partSize = DEFAULT_MAX_PART_SIZE;
        private long rolloverInterval = DEFAULT_ROLLOVER_INTERVAL;
        private long inactivityInterval = DEFAULT_INACTIVITY_INTERVAL;

        private PolicyBuilder() {}

        /** Roll when a part reaches {@code size} (positive). */
        public PolicyBuilder withMaxPartSize(MemorySize size) {
            return withMaxPartSize(Objects.requireNonNull(size, "size").getBytes());
        }

        /** Roll when a part reaches {@code bytes} (positive). */
        public PolicyBuilder withMaxPartSize(long bytes) {
            if (bytes <= 0) {
                throw new IllegalArgumentException("The maximum part size must be positive, not " + bytes);
            }
            this.partSize = bytes;
            return this;
        }

        /** Roll when a part is {@code interval} (positive) old. */
        public PolicyBuilder withRolloverInterval(Duration interval) {
            this.rolloverInterval = positiveMillis(interval, "rollover interval");
            return this;
        }

        /** Roll when no record was written to a part for {@code interval} (positive). */
        public PolicyBuilder withInactivityInterval(Duration interval) {
            this.inactivityInterval = positiveMillis(interval, "inactivity interval");
            return this;
        }

        /**
         * Roll when a part is {@code interval} milliseconds (positive) old.
         *
         * @deprecated use {@link #withRolloverInterval(Duration)}
         */
        @Deprecated
        public PolicyBuilder withRolloverInterval(long interval) {
            return withRolloverInterval(Duration.ofMillis(interval));
        }

        /**
         * Roll when no record was written to a part for {@code interval} milliseconds (positive).
         *
         * @deprecated use {@link #withInactivityInterval(Duration)}
         */
        @Deprecated
        public PolicyBuilder withInactivityInterval(long interval) {
            return withInactivityInterval(Duration.ofMillis(interval));
        }

        public <IN, BucketID> DefaultRollingPolicy<IN, BucketID> build() {
            return new DefaultRollingPolicy<>(partSize, rolloverInterval, inactivityInterval);
        }

        private static long positiveMillis(Duration interval, String what) {
            Objects.requireNonNull(interval, what);
            if (interval.isNegative() || interval.isZero()) {
                throw new IllegalArgumentException("The " + what + " must be positive, not " + interval);
            }
            try {
                return Math.max(1, interval.toMillis());
            } catch (ArithmeticException tooLong) {
                return Long.MAX_VALUE;
            }
        }
    }
}
