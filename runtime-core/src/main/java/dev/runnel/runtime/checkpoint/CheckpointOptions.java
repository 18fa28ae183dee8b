package dev.runnel.runtime.checkpoint;

import dev.runnel.core.execution.SavepointFormatType;
import java.io.Serializable;
import java.util.Objects;

/**
 * How one checkpoint is to be taken; travels with its barrier. A checkpoint may be incremental (a store
 * that supports it writes only what changed); a savepoint is always self-contained, in the
 * {@link #getSavepointFormat() format} the user asked for. In exactly-once mode tasks align barriers
 * (block a channel that delivered the barrier until all have); in at-least-once mode they do not.
 * Immutable.
 */
public final class CheckpointOptions implements Serializable {

    private static final long serialVersionUID = 1L;

    private final boolean savepoint;
    private final SavepointFormatType savepointFormat;
    private final boolean exactlyOnce;

    private CheckpointOptions(boolean savepoint, SavepointFormatType savepointFormat, boolean exactlyOnce) {
        this.savepoint = savepoint;
        this.savepointFormat = savepointFormat;
        this.exactlyOnce = exactlyOnce;
    }

    /** A periodic checkpoint. */
    public static CheckpointOptions checkpoint(boolean exactlyOnce) {
        return new CheckpointOptions(false, null, exactlyOnce);
    }

    /** A savepoint in {@code format}; always aligned. */
    public static CheckpointOptions savepoint(SavepointFormatType format) {
        return new CheckpointOptions(true, Objects.requireNonNull(format, "format"), true);
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

    @Override
    public boolean equals(Object o) {
        return o instanceof CheckpointOptions other && savepoint == other.savepoint
                && savepointFormat == other.savepointFormat && exactlyOnce == other.exactlyOnce;
    }

    @Override
    public int hashCode() {
        return Objects.hash(savepoint, savepointFormat, exactlyOnce);
    }

    @Override
    public String toString() {
        return savepoint ? "savepoint(" + savepointFormat + ")" : exactlyOnce ? "checkpoint(exactly once)"
                : "checkpoint(at least once)";
    }
}
