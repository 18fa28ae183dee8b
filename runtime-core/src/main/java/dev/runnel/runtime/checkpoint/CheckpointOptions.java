package dev.runnel.runtime.checkpoint;

import dev.runnel.core.execution.SavepointFormatType;
import java.io.Serializable;
import java.util.Objects;

/**
 * How one checkpoint is to be taken; travels with its barrier. A checkpoint may be incremental (a store
 * that supports it writes only what changed); a savepoint is always self-contained, in the
 * {@link #getSavepointFormat() format} the user asked for. Immutable.
 *
 * <p>The {@link AlignmentType} says how tasks treat the barrier, as in Flink:
 * <ul>
 *   <li>{@code AT_LEAST_ONCE}: nothing is blocked; the task snapshots when the last barrier arrives.</li>
 *   <li>{@code ALIGNED}: a channel that delivered the barrier is blocked until all have. With an
 *       {@link #getAlignedCheckpointTimeout() aligned checkpoint timeout} (unaligned checkpoints enabled and
 *       {@code execution.checkpointing.aligned-checkpoint-timeout} &gt; 0) the checkpoint starts aligned and a
 *       task whose alignment outlasts the timeout switches it to unaligned ({@link #toUnaligned()}).</li>
 *   <li>{@code UNALIGNED}: the barrier overtakes the data queued in each channel (a priority event), and that
 *       in-flight data becomes part of the checkpoint as channel state. Exactly once, never a savepoint.</li>
 *   <li>{@code FORCED_ALIGNED}: an unaligned (or timeoutable) checkpoint's barrier on an edge whose
 *       partitioner does not support unaligned checkpoints (forward, rescale, broadcast): it travels in order
 *       and the receiver aligns that channel, so such an edge never has channel state
 *       ({@link #withUnalignedUnsupported()}; {@link #withUnalignedSupported()} undoes it for the next edge).</li>
 * </ul>
 */
public final class CheckpointOptions implements Serializable {

    private static final long serialVersionUID = 2L;

    /** {@link #getAlignedCheckpointTimeout()} when alignment never times out. */
    public static final long NO_ALIGNED_CHECKPOINT_TIME_OUT = Long.MAX_VALUE;

    /** How tasks align the barrier of a checkpoint; Flink's names. */
    public enum AlignmentType {
        AT_LEAST_ONCE, ALIGNED, UNALIGNED, FORCED_ALIGNED
    }

    private final boolean savepoint;
    private final SavepointFormatType savepointFormat;
    private final AlignmentType alignment;
    private final long alignedCheckpointTimeout;
    /** See {@link #isLocalHandover()}; only for a NATIVE savepoint. */
    private final boolean localHandover;

    private CheckpointOptions(boolean savepoint, SavepointFormatType savepointFormat, AlignmentType alignment,
            long alignedCheckpointTimeout) {
        this(savepoint, savepointFormat, alignment, alignedCheckpointTimeout, false);
    }

    private CheckpointOptions(boolean savepoint, SavepointFormatType savepointFormat, AlignmentType alignment,
            long alignedCheckpointTimeout, boolean localHandover) {
        this.savepoint = savepoint;
        this.savepointFormat = savepointFormat;
        this.alignment = alignment;
        this.alignedCheckpointTimeout = alignedCheckpointTimeout;
        this.localHandover = localHandover;
    }

    /** A periodic checkpoint. */
    public static CheckpointOptions checkpoint(boolean exactlyOnce) {
        return checkpoint(exactlyOnce, false);
    }

    /**
     * A periodic checkpoint that is unaligned when {@code unaligned} and exactly once (at least once never
     * aligns, so there is nothing to overtake, as in Flink).
     */
    public static CheckpointOptions checkpoint(boolean exactlyOnce, boolean unaligned) {
        return checkpoint(exactlyOnce, unaligned, 0);
    }

    /**
     * A periodic checkpoint. With {@code unaligned} (and exactly once) and a positive
     * {@code alignedCheckpointTimeoutMillis} it starts aligned and turns unaligned at a task whose alignment
     * lasts longer than that, counted from the checkpoint's start (its barrier's timestamp); with 0 it is
     * unaligned from the start. Without {@code unaligned} the timeout is ignored, as in Flink.
     *
     * @throws IllegalArgumentException if the timeout is negative
     */
    public static CheckpointOptions checkpoint(boolean exactlyOnce, boolean unaligned,
            long alignedCheckpointTimeoutMillis) {
        if (alignedCheckpointTimeoutMillis < 0) {
            throw new IllegalArgumentException("the aligned checkpoint timeout must be 0 (start unaligned) or"
                    + " positive, was " + alignedCheckpointTimeoutMillis + " ms");
        }
        if (!exactlyOnce) {
            return new CheckpointOptions(false, null, AlignmentType.AT_LEAST_ONCE, NO_ALIGNED_CHECKPOINT_TIME_OUT);
        }
        if (!unaligned) {
            return new CheckpointOptions(false, null, AlignmentType.ALIGNED, NO_ALIGNED_CHECKPOINT_TIME_OUT);
        }
        return alignedCheckpointTimeoutMillis == 0
                ? new CheckpointOptions(false, null, AlignmentType.UNALIGNED, NO_ALIGNED_CHECKPOINT_TIME_OUT)
                : new CheckpointOptions(false, null, AlignmentType.ALIGNED, alignedCheckpointTimeoutMillis);
    }

    /** A savepoint in {@code format}; always aligned. */
    public static CheckpointOptions savepoint(SavepointFormatType format) {
        return new CheckpointOptions(true, Objects.requireNonNull(format, "format"), AlignmentType.ALIGNED,
                NO_ALIGNED_CHECKPOINT_TIME_OUT);
    }

    /**
     * The snapshot of an in-place rescale: a NATIVE savepoint, always aligned, whose only reader is the next set
     * of tasks of the same job on the same machine ({@link #isLocalHandover()}). A store that has files (RocksDB)
     * may leave them on local disk and hand over their paths instead of writing them to checkpoint storage; a
     * store without (heap) writes its canonical snapshot as for any NATIVE savepoint.
     */
    public static CheckpointOptions rescaleHandover() {
        return new CheckpointOptions(true, SavepointFormatType.NATIVE, AlignmentType.ALIGNED,
                NO_ALIGNED_CHECKPOINT_TIME_OUT, true);
    }

    /**
     * Whether the snapshot is only handed to the tasks that replace the current ones in this process (see
     * {@link #rescaleHandover()}): its state may then refer to local files that outlive the store which wrote
     * them, and which the job deletes once the new tasks restored. False for every checkpoint and user savepoint.
     */
    public boolean isLocalHandover() {
        return localHandover;
    }

    public boolean isSavepoint() {
        return savepoint;
    }

    /** The savepoint's format, or null for a checkpoint. */
    public SavepointFormatType getSavepointFormat() {
        return savepointFormat;
    }

    /** Whether stores may write only what changed since an earlier checkpoint (never for savepoints). */
    public boolean mayBeIncremental() {
        return !savepoint;
    }

    public AlignmentType getAlignment() {
        return alignment;
    }

    /** Exactly-once: tasks align barriers across their input channels (or persist what the barrier overtook). */
    public boolean isExactlyOnceMode() {
        return alignment != AlignmentType.AT_LEAST_ONCE;
    }

    /**
     * Unaligned: the barrier travels ahead of the queued data (a priority event), tasks snapshot at the first
     * barrier without blocking any channel, and the records the barrier overtook are persisted as channel
     * state. Only for exactly-once checkpoints, never for savepoints (which must be self-contained, as in Flink).
     */
    public boolean isUnalignedCheckpoint() {
        return alignment == AlignmentType.UNALIGNED;
    }

    /**
     * Whether the checkpoint may become unaligned at a task: unaligned already, timeoutable, or forced aligned
     * on this edge only. False for savepoints, at-least-once and plain aligned checkpoints.
     */
    public boolean needsChannelState() {
        return isUnalignedCheckpoint() || isTimeoutable() || alignment == AlignmentType.FORCED_ALIGNED;
    }

    /** The barrier came over an edge that does not support unaligned checkpoints; see the class comment. */
    public boolean isForcedAligned() {
        return alignment == AlignmentType.FORCED_ALIGNED;
    }

    /** Milliseconds from the checkpoint's start after which an aligning task goes unaligned; see the class comment. */
    public long getAlignedCheckpointTimeout() {
        return alignedCheckpointTimeout;
    }

    /** Whether an aligned barrier of this checkpoint turns unaligned once the alignment timeout passed. */
    public boolean isTimeoutable() {
        return alignment == AlignmentType.ALIGNED && alignedCheckpointTimeout > 0
                && alignedCheckpointTimeout != NO_ALIGNED_CHECKPOINT_TIME_OUT;
    }

    /**
     * These options for an edge whose partitioner does not support unaligned checkpoints: an unaligned or
     * timeoutable checkpoint travels {@link AlignmentType#FORCED_ALIGNED forced aligned}; others are unchanged.
     */
    public CheckpointOptions withUnalignedUnsupported() {
        if (isUnalignedCheckpoint() || isTimeoutable()) {
            return new CheckpointOptions(savepoint, savepointFormat, AlignmentType.FORCED_ALIGNED,
                    alignedCheckpointTimeout);
        }
        return this;
    }

    /**
     * The inverse of {@link #withUnalignedUnsupported()}, for the edges a task forwards the barrier on: a forced
     * aligned barrier becomes unaligned again, or aligned with its timeout if it was timeoutable.
     */
    public CheckpointOptions withUnalignedSupported() {
        if (alignment != AlignmentType.FORCED_ALIGNED) {
            return this;
        }
        return new CheckpointOptions(savepoint, savepointFormat,
                alignedCheckpointTimeout == NO_ALIGNED_CHECKPOINT_TIME_OUT ? AlignmentType.UNALIGNED
                        : AlignmentType.ALIGNED, alignedCheckpointTimeout);
    }

    /**
     * The unaligned form of a checkpoint that may become unaligned ({@link #needsChannelState()}): what a task
     * whose alignment timed out, or that received an unaligned barrier while aligning, forwards.
     *
     * @throws IllegalStateException for a savepoint, an at-least-once or a plain aligned checkpoint
     */
    public CheckpointOptions toUnaligned() {
        if (!needsChannelState()) {
            throw new IllegalStateException("cannot make " + this + " unaligned");
        }
        return isUnalignedCheckpoint() ? this : new CheckpointOptions(savepoint, savepointFormat,
                AlignmentType.UNALIGNED, NO_ALIGNED_CHECKPOINT_TIME_OUT);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckpointOptions other && savepoint == other.savepoint
                && savepointFormat == other.savepointFormat && alignment == other.alignment
                && alignedCheckpointTimeout == other.alignedCheckpointTimeout && localHandover == other.localHandover;
    }

    @Override
    public int hashCode() {
        return Objects.hash(savepoint, savepointFormat, alignment, alignedCheckpointTimeout, localHandover);
    }

    @Override
    public String toString() {
        if (localHandover) {
            return "rescale handover";
        }
        if (savepoint) {
            return "savepoint(" + savepointFormat + ")";
        }
        String timeout = alignedCheckpointTimeout == NO_ALIGNED_CHECKPOINT_TIME_OUT ? ""
                : ", aligned checkpoint timeout " + alignedCheckpointTimeout + " ms";
        return switch (alignment) {
            case AT_LEAST_ONCE -> "checkpoint(at least once)";
            case ALIGNED -> "checkpoint(exactly once" + timeout + ")";
            case UNALIGNED -> "checkpoint(unaligned)";
            case FORCED_ALIGNED -> "checkpoint(forced aligned" + timeout + ")";
        };
    }
}
