package dev.runnel.runtime.io;

/**
 * A control element that travels in a channel in order with the records: watermarks, watermark status
 * (idleness), end of partition, checkpoint barriers and cancellation markers. The set is closed: every event is one of
 * the permitted classes, has a {@link Type} to dispatch on without type tests, and a wire form written
 * by {@link ChannelEventCodec}. Events are immutable and may be shared by all channels of a broadcast.
 */
public sealed interface ChannelEvent permits WatermarkEvent, WatermarkStatusEvent, EndOfPartitionEvent,
        CheckpointBarrier, CancelCheckpointMarker {

    /** The kinds of event, with the tag byte that starts each one's wire form. Tags never change meaning. */
    enum Type {
        WATERMARK(1),
        WATERMARK_STATUS(2),
        END_OF_PARTITION(3),
        CHECKPOINT_BARRIER(4),
        CANCEL_CHECKPOINT(5);

        private final byte tag;

        Type(int tag) {
            this.tag = (byte) tag;
        }

        /** The first byte of this event's wire form. */
        public byte tag() {
            return tag;
        }
    }

    /** What kind of event this is; consumers switch on it. */
    Type type();

    /**
     * Whether this event overtakes the data queued ahead of it in a channel (the barrier of an unaligned
     * checkpoint). A channel delivers such an event twice: once as soon as it can, ahead of what is queued
     * ({@link RecordBatch#isPriority()}), and once in order, which marks where it was sent among the records.
     */
    default boolean isPriority() {
        return false;
    }
}
