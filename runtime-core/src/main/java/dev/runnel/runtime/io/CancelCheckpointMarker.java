package dev.runnel.runtime.io;

/**
 * Tells downstream tasks that checkpoint {@code checkpointId} was given up by a task upstream (it declined,
 * or it was aborted while aligning): a task aligning for it stops and lets its blocked channels go.
 */
public record CancelCheckpointMarker(long checkpointId) implements ChannelEvent {

    @Override
    public Type type() {
        return Type.CANCEL_CHECKPOINT;
    }
}
