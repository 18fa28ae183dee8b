package dev.runnel.streaming.api.functions.sink.filesystem;

import java.io.IOException;
import java.io.Serializable;

/**
 * Decides when a file sink's writer closes its in-progress part file ("rolls" it); the next record of the
 * bucket starts a new part. A rolled part is pending: it becomes visible (renamed to its final name) when the
 * next checkpoint completes, or at the end of a bounded input.
 *
 * <p>Serializable configuration, shipped with the sink; called on the writer's task thread.
 *
 * @param <IN> the record type
 * @param <BucketID> the type of the bucket id
 */
public interface RollingPolicy<IN, BucketID> extends Serializable {

    /**
     * Whether to roll {@code partFileState} at a checkpoint. A part that is not rolled stays in progress
     * across the checkpoint: the writer records its length and, after a failure, resumes it from there.
     */
    boolean shouldRollOnCheckpoint(PartFileInfo<BucketID> partFileState) throws IOException;

    /** Whether to roll {@code partFileState} before writing {@code element} (not null) into it. */
    boolean shouldRollOnEvent(PartFileInfo<BucketID> partFileState, IN element) throws IOException;

    /**
     * Whether to roll {@code partFileState} at processing time {@code currentTime} (epoch milliseconds). The
     * writer asks at each bucket check (every {@code withBucketCheckInterval}), before each record, and at
     * each non-final flush.
     */
    boolean shouldRollOnProcessingTime(PartFileInfo<BucketID> partFileState, long currentTime) throws IOException;
}
