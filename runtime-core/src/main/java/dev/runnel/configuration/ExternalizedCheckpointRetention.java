package dev.runnel.configuration;

/**
 * What happens to a job's retained checkpoints when the job ends, at Flink 1.20's path
 * ({@code execution.checkpointing.externalized-checkpoint-retention}). A checkpoint is always kept when the
 * job fails, whatever this says, so that it can be resumed. An immutable enum; safe from any thread.
 */
public enum ExternalizedCheckpointRetention {

    /** Checkpoints are deleted when the job is cancelled; they survive a failure. */
    DELETE_ON_CANCELLATION,

    /** Checkpoints are kept when the job is cancelled too; deleting them is then the user's job. */
    RETAIN_ON_CANCELLATION,

    /** Checkpoints are not externalized: they are cleaned up when the job ends (the default). */
    NO_EXTERNALIZED_CHECKPOINTS;

    /** Whether checkpoints are written so that they outlive the job. */
    public boolean isExternalized() {
        return this != NO_EXTERNALIZED_CHECKPOINTS;
    }

    /** Whether a cancelled job's checkpoints are deleted. */
    public boolean deleteOnCancellation() {
        return this != RETAIN_ON_CANCELLATION;
    }
}
