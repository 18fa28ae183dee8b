package dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies;

import dev.runnel.streaming.api.functions.sink.filesystem.PartFileInfo;
import dev.runnel.streaming.api.functions.sink.filesystem.RollingPolicy;

/**
 * A rolling policy that always rolls at checkpoints (required by bulk formats, which cannot resume a
 * file), and may roll on events and processing time as the subclass decides.
 *
 * @param <IN> the record type
 * @param <BucketID> the type of the bucket id
 */
public abstract class CheckpointRollingPolicy<IN, BucketID> implements RollingPolicy<IN, BucketID> {

    private static final long serialVersionUID = 1L;

    @Override
    public boolean shouldRollOnCheckpoint(PartFileInfo<BucketID> partFileState) {
        return true;
    }

    @Override
    public abstract boolean shouldRollOnEvent(PartFileInfo<BucketID> partFileState, IN element);

    @Override
    public abstract boolean shouldRollOnProcessingTime(PartFileInfo<BucketID> partFileState, long currentTime);
}
