package dev.runnel.api.common.state;

/**
 * Told when a checkpoint completes or is aborted, on the task thread. Implemented by operators and by user
 * functions that publish something only once it is safe (a two-phase committing sink commits the files of
 * checkpoint N when N completes). A completion notice may be lost (a failure right after completion); the
 * next one covers every earlier checkpoint.
 */
public interface CheckpointListener {

    /** Checkpoint {@code checkpointId} completed: every task acknowledged it and its metadata is durable. */
    void notifyCheckpointComplete(long checkpointId) throws Exception;

    /** Checkpoint {@code checkpointId} was aborted (declined, timed out, or subsumed before completion). */
    default void notifyCheckpointAborted(long checkpointId) throws Exception {}
}
