package dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies;

import dev.runnel.streaming.api.functions.sink.filesystem.PartFileInfo;

/**
 * Rolls at every checkpoint and never otherwise: each checkpoint commits one part per bucket and subtask
 * (that received records). Without checkpointing a part stays open until the end of input. Stateless.
 *
 * @param <IN> the record type
 * @param <BucketID> the type of the bucket id
 */
public final class OnCheckpointRollingPolicy<IN, BucketID> extends CheckpointRollingPolicy<IN, BucketID> {

    private static final long serialVersionUID = 1L;

    private OnCheckpointRollingPolicy() {}

    /** The policy. */
    public static <IN, BucketID> OnCheckpointRollingPolicy<IN, BucketID> build() {
        return new OnCheckpointRollingPolicy<>();
    }

    @Override
    public boolean shouldRollOnEvent(PartFileInfo<BucketID> partFileState, IN element) {
        return false;
    }

    @Override
    public boolean shouldRollOnProcessingTime(PartFileInfo<BucketID> partFileState, long currentTime) {
        return false;
    }

    @Override
    public String toString() {
        return "OnCheckpointRollingPolicy";
    }
}
