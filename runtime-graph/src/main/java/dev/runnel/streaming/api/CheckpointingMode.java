package dev.runnel.streaming.api;

/**
 * The checkpointing mode at its pre-1.20 Flink path, kept so that older jobs compile unchanged.
 * An immutable enum; safe from any thread.
 *
 * @deprecated use {@link dev.runnel.core.execution.CheckpointingMode}, as Flink 1.20 does; the two convert
 *     with {@link #convertToCheckpointingMode} and {@link #convertFromCheckpointingMode}.
 */
@Deprecated
public enum CheckpointingMode {
    EXACTLY_ONCE,
    AT_LEAST_ONCE;

    /** The same mode as {@link dev.runnel.core.execution.CheckpointingMode}; null for null. */
    public static dev.runnel.core.execution.CheckpointingMode convertToCheckpointingMode(CheckpointingMode mode) {
        if (mode == null) {
            return null;
        }
        return switch (mode) {
            case EXACTLY_ONCE -> dev.runnel.core.execution.CheckpointingMode.EXACTLY_ONCE;
            case AT_LEAST_ONCE -> dev.runnel.core.execution.CheckpointingMode.AT_LEAST_ONCE;
        };
    }

    /** The same mode as this deprecated enum; null for null. */
    public static CheckpointingMode convertFromCheckpointingMode(dev.runnel.core.execution.CheckpointingMode mode) {
        if (mode == null) {
            return null;
        }
        return switch (mode) {
            case EXACTLY_ONCE -> EXACTLY_ONCE;
            case AT_LEAST_ONCE -> AT_LEAST_ONCE;
        };
    }
}
