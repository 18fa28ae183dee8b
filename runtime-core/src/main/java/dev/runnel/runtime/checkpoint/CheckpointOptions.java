package dev.runnel.runtime.checkpoint;

import dev.runnel.core.execution.SavepointFormatType;
import java.io.Serializable;
import java.util.Objects;

/**
 * How one checkpoint is to be taken; travels with its barrier. A checkpoint may be incremental (a store
 * that supports it writes only what changed); a savepoint is always self-contained, in the
 * {@link #getSavepointFormat() format} the user asked for. In exactly-once mode tasks align barriers
 * (block a channel that delivered the barrier until all have); in at-least-once mode they do not. An
 * {@link #isUnalignedCheckpoint() unaligned} checkpoint (exactly once, never a savepoint) does not align:
 * its barrier overtakes the data queued in each channel, and that in-flight data becomes part of the
 * checkpoint as channel state. Immutable.
 */
public final class CheckpointOptions implements Serializable {

    private static final long serialVersionUID = 1L;

    private final boolean savepoint;
    private final SavepointFormatType savepointFormat;
    private final boolean exactlyOnce;
    private final boolean unaligned;

    private CheckpointOptions(boolean savepoint, SavepointFormatType savepointFormat, boolean exactlyOnce,
            boolean unaligned) {
        this.savepoint = savepoint;
        this.savepointFormat = savepointFormat;
        this.exactlyOnce = exactlyOnce;
        this.unaligned = unaligned;
    }

    /** A periodic checkpoint. */
    public static CheckpointOptions checkpoint(boolean exactlyOnce) {
        return new CheckpointOptions(false, null, exactlyOnce, false);
    }

    /**
     * A periodic checkpoint that is unaligned when {@code unaligned} and exactly once (at least once never
     * aligns, so there is nothing to overtake, as in Flink).
     */
    public static CheckpointOptions checkpoint(boolean exactlyOnce, boolean unaligned) {
        return new CheckpointOptions(false, null, exactlyOnce, exactlyOnce && unaligned);
    }

    /** A savepoint in {@code format}; always aligned. */
    public static CheckpointOptions savepoint(SavepointFormatType format) {
        return new CheckpointOptions(true, Objects.requireNonNull(format, "format"), true, false);
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

    /** Exactly-once: tasks align barriers across their input channels. */
    public boolean isExactlyOnceMode() {
        return exactlyOnce;
    }

    /**
     * Unaligned: the barrier travels ahead of the queued data (a priority event), tasks snapshot at the first
     * barrier without blocking any channel, and the records the barrier overtook are persisted as channel
     * state. Only for exactly-once checkpoints, never for savepoints (which must be self-contained, as in Flink).
     */
    public boolean isUnalignedCheckpoint() {
        return unaligned;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckpointOptions other && savepoint == other.savepoint
                && savepointFormat == other.savepointFormat && exactlyOnce == other.exactlyOnce
                && unaligned == other.unaligned;
    }

    @Override
    public int hashCode() {
        return Objects.hash(savepoint, savepointFormat, exactlyOnce, unaligned);
    }

    @Override
    public String toString() {
        return savepoint ? "savepoint(" + savepointFormat + ")" : unaligned ? "checkpoint(unaligned)"
                : exactlyOnce ? "checkpoint(exactly once)" : "checkpoint(at least once)";
    }
}
