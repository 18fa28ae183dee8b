package dev.runnel.core.execution;

/**
 * The consistency a job's checkpoints give its state after recovery, at Flink 1.20's path
 * ({@code execution.checkpointing.mode}). An immutable enum; safe from any thread.
 *
 * <ul>
 *   <li>{@link #EXACTLY_ONCE} (the default): a task with several inputs aligns the checkpoint barriers of
 *       its inputs, holding back records that arrive after a barrier, so every record affects the restored
 *       state exactly once.
 *   <li>{@link #AT_LEAST_ONCE}: barriers are not aligned; after recovery, records that arrived between the
 *       first and the last barrier may be processed again. Less latency under skew.
 * </ul>
 */
public enum CheckpointingMode {
    EXACTLY_ONCE,
    AT_LEAST_ONCE
}
