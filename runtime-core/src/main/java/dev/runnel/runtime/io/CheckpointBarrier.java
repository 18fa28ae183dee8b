package dev.runnel.runtime.io;

import dev.runnel.runtime.checkpoint.CheckpointOptions;
import java.util.Objects;

/**
 * Marks the point in a channel where checkpoint {@code id} cuts the stream: records before it belong to the
 * checkpoint's state, records after it to what follows. Sources inject it; every task forwards it on all its
 * outputs once it has it from all its inputs (aligned, in exactly-once mode) and has snapshotted its state;
 * for an unaligned checkpoint, at once on the first barrier, ahead of the data queued in its output channels
 * (except on edges whose partitioner does not support that, where it goes in order,
 * {@linkplain CheckpointOptions#isForcedAligned() forced aligned}).
 */
public record CheckpointBarrier(long id, long timestamp, CheckpointOptions options) implements ChannelEvent {

    public CheckpointBarrier {
        Objects.requireNonNull(options, "options");
    }

    @Override
    public Type type() {
        return Type.CHECKPOINT_BARRIER;
    }

    /** An unaligned checkpoint's barrier overtakes queued data; a forced aligned or timeoutable one does not. */
    @Override
    public boolean isPriority() {
        return options.isUnalignedCheckpoint();
    }
}
