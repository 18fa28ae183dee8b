package dev.runnel.runtime.io;

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
        throw new CorruptDataException("unknown channel event tag " + tag + " (known: 1 watermark, 2 watermark status,"
                + " 3 end of partition); the peer speaks another protocol version or the stream is corrupt");
    }
}
