package dev.runnel.runtime.io;

import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;
import java.io.IOException;

/**
 * The wire form of {@link ChannelEvent}s, for shuffles that leave the JVM. Every event starts with its
 * {@link ChannelEvent.Type#tag() tag byte}; the payload follows, big-endian:
 *
 * <pre>
 *   WATERMARK         tag 1, then the timestamp as 8 bytes
 *   WATERMARK_STATUS  tag 2, then 1 byte: 1 idle, 0 active
 *   END_OF_PARTITION  tag 3, nothing more
 *   CHECKPOINT_BARRIER tag 4, checkpoint id (8 bytes), timestamp (8 bytes), kind (1 byte: 0 checkpoint
 *                     at least once, 1 checkpoint exactly once, 2 canonical savepoint, 3 native savepoint,
 *                     4 unaligned checkpoint, 5 aligned checkpoint with an aligned checkpoint timeout, 6 forced
 *                     aligned (unaligned on an edge that does not support it), 7 forced aligned with a timeout,
 *                     8 the rescale handover ({@link CheckpointOptions#rescaleHandover()});
 *                     kinds 5 and 7 are followed by the timeout in ms (8 bytes); a new kind takes the next
 *                     number, old ones never change)
 *   CANCEL_CHECKPOINT tag 5, checkpoint id (8 bytes)
 * </pre>
 *
 * An unknown tag or an impossible payload is a {@link CorruptDataException} naming what was read, never
 * a silently wrong event. Stateless and thread-safe.
 */
public final class ChannelEventCodec {

    private ChannelEventCodec() {}

    /** Writes {@code event} in its wire form. */
    public static void write(ChannelEvent event, DataOutputView out) throws IOException {
        out.writeByte(event.type().tag());
        switch (event.type()) {
            case WATERMARK -> out.writeLong(((WatermarkEvent) event).timestamp());
            case WATERMARK_STATUS -> out.writeByte(((WatermarkStatusEvent) event).idle() ? 1 : 0);
            case END_OF_PARTITION -> { }
            case CHECKPOINT_BARRIER -> {
                CheckpointBarrier barrier = (CheckpointBarrier) event;
                out.writeLong(barrier.id());
                out.writeLong(barrier.timestamp());
                int kind = kind(barrier.options());
                out.writeByte(kind);
                if (kind == 5 || kind == 7) {
                    out.writeLong(barrier.options().getAlignedCheckpointTimeout());
                }
            }
            case CANCEL_CHECKPOINT -> out.writeLong(((CancelCheckpointMarker) event).checkpointId());
        }
    }

    /** Reads one event written by {@link #write}. */
    public static ChannelEvent read(DataInputView in) throws IOException {
        byte tag = in.readByte();
        if (tag == ChannelEvent.Type.WATERMARK.tag()) {
            return new WatermarkEvent(in.readLong());
        }
        if (tag == ChannelEvent.Type.WATERMARK_STATUS.tag()) {
            byte idle = in.readByte();
            if (idle != 0 && idle != 1) {
                throw new CorruptDataException("watermark status event with flag " + idle + " (expected 0 or 1)");
            }
            return WatermarkStatusEvent.of(idle == 1);
        }
        if (tag == ChannelEvent.Type.END_OF_PARTITION.tag()) {
            return EndOfPartitionEvent.INSTANCE;
        }
        if (tag == ChannelEvent.Type.CHECKPOINT_BARRIER.tag()) {
            long id = in.readLong();
            long timestamp = in.readLong();
            byte kind = in.readByte();
            long timeout = kind == 5 || kind == 7 ? in.readLong() : 0;
            return new CheckpointBarrier(id, timestamp, options(kind, id, timeout));
        }
        if (tag == ChannelEvent.Type.CANCEL_CHECKPOINT.tag()) {
            return new CancelCheckpointMarker(in.readLong());
        }
        throw new CorruptDataException("unknown channel event tag " + tag + " (known: 1 watermark, 2 watermark status,"
                + " 3 end of partition, 4 checkpoint barrier, 5 cancel checkpoint); the peer speaks another protocol version or the stream is corrupt");
    }

    private static int kind(CheckpointOptions options) {
        if (!options.isSavepoint()) {
            return switch (options.getAlignment()) {
                case AT_LEAST_ONCE -> 0;
                case ALIGNED -> options.isTimeoutable() ? 5 : 1;
                case UNALIGNED -> 4;
                case FORCED_ALIGNED ->
                        options.getAlignedCheckpointTimeout() == CheckpointOptions.NO_ALIGNED_CHECKPOINT_TIME_OUT ? 6 : 7;
            };
        }
        if (options.isLocalHandover()) {
            return 8;
        }
        return options.getSavepointFormat() == SavepointFormatType.NATIVE ? 3 : 2;
    }

    private static CheckpointOptions options(byte kind, long id, long timeout) throws CorruptDataException {
        if ((kind == 5 || kind == 7) && (timeout <= 0 || timeout == CheckpointOptions.NO_ALIGNED_CHECKPOINT_TIME_OUT)) {
            throw new CorruptDataException("checkpoint barrier " + id + " of kind " + kind
                    + " with aligned checkpoint timeout " + timeout + " ms (expected a positive number of ms)");
        }
        return switch (kind) {
            case 0 -> CheckpointOptions.checkpoint(false);
            case 1 -> CheckpointOptions.checkpoint(true);
            case 2 -> CheckpointOptions.savepoint(SavepointFormatType.CANONICAL);
            case 3 -> CheckpointOptions.savepoint(SavepointFormatType.NATIVE);
            case 4 -> CheckpointOptions.checkpoint(true, true);
            case 5 -> CheckpointOptions.checkpoint(true, true, timeout);
            case 6 -> CheckpointOptions.checkpoint(true, true).withUnalignedUnsupported();
            case 7 -> CheckpointOptions.checkpoint(true, true, timeout).withUnalignedUnsupported();
            case 8 -> CheckpointOptions.rescaleHandover();
            default -> throw new CorruptDataException("checkpoint barrier " + id + " with kind " + kind
                    + " (expected 0-8)");
        };
    }
}
