package dev.runnel.runtime.network.netty;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.shuffle.ChannelId;
import io.netty.buffer.ByteBuf;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * Turns the buffers of one remote channel back into records: {@code [int length][long timestamp][value]}
 * each, a record possibly continued from one buffer into the next (its bytes are collected in a spill array
 * until complete). A record whose value does not use exactly its length, or an impossible length, is
 * reported as corrupt with the channel's name. Consumer task thread only.
 */
final class RecordDeserializer {

    private final ChannelId channel;
    private final TypeSerializer<Object> serializer;
    private final int maxRecordBytes;
    private final DataInputDeserializer in = new DataInputDeserializer();
    private ByteBuf buffer;
    private byte[] spill = new byte[256];
    private int spilled;
    private int spillTarget = -1;

    @SuppressWarnings("unchecked")
    RecordDeserializer(ChannelId channel, TypeSerializer<?> serializer, int maxRecordBytes) {
        this.channel = channel;
        this.serializer = (TypeSerializer<Object>) serializer;
        this.maxRecordBytes = maxRecordBytes;
    }

    void setBuffer(ByteBuf buffer) {
        this.buffer = buffer;
    }

    /** Hands the buffer being read to the caller (to give it back) and forgets it. */
    ByteBuf takeBuffer() {
        ByteBuf current = buffer;
        buffer = null;
        return current;
    }

    boolean hasBuffer() {
        return buffer != null;
    }

    /** Whether a record is half read: its rest is in the next buffer. */
    boolean hasPartialRecord() {
        return spilled > 0;
    }

    /**
     * Reads records from the current buffer into {@code batch} until it is full or the buffer is used up;
     * returns the used-up buffer (for recycling) or null while it still has bytes.
     */
    ByteBuf readInto(RecordBatch batch) {
        ByteBuf buf = buffer;
        byte[] array = buf.array();
        int base = buf.arrayOffset();
        // Whole records are read straight from the backing array, with the reader index set once at the end.
        int position = buf.readerIndex();
        int end = buf.writerIndex();
        while (position < end && batch.size() < batch.capacity()) {
            int available = end - position;
            if (spilled > 0 || available < 4) {
                buf.readerIndex(position);
                continueSpill(buf, batch);
                position = buf.readerIndex();
                continue;
            }
            int at = base + position;
            int length = ((array[at] & 0xFF) << 24) | ((array[at + 1] & 0xFF) << 16)
                    | ((array[at + 2] & 0xFF) << 8) | (array[at + 3] & 0xFF);
            checkLength(length);
            if (available < 4 + length) {
                buf.readerIndex(position);
                continueSpill(buf, batch);
                position = buf.readerIndex();
                continue;
            }
            decode(array, at + 4, length, batch);
            position += 4 + length;
        }
        buf.readerIndex(position);
        if (buf.isReadable()) {
            return null;
        }
        buffer = null;
        return buf;
    }

    /** Collects the bytes of a record that spans buffers; decodes it once complete. */
    private void continueSpill(ByteBuf buf, RecordBatch batch) {
        if (spillTarget < 0) {
            int headerNeeded = 4 - spilled;
            int n = Math.min(headerNeeded, buf.readableBytes());
            ensureSpill(4);
            buf.readBytes(spill, spilled, n);
            spilled += n;
            if (spilled < 4) {
                return;
            }
            int length = ((spill[0] & 0xFF) << 24) | ((spill[1] & 0xFF) << 16) | ((spill[2] & 0xFF) << 8) | (spill[3] & 0xFF);
            checkLength(length);
            spillTarget = 4 + length;
            ensureSpill(spillTarget);
        }
        int n = Math.min(spillTarget - spilled, buf.readableBytes());
        buf.readBytes(spill, spilled, n);
        spilled += n;
        if (spilled == spillTarget) {
            decode(spill, 4, spillTarget - 4, batch);
            spilled = 0;
            spillTarget = -1;
        }
    }

    private void decode(byte[] bytes, int offset, int length, RecordBatch batch) {
        in.setBuffer(bytes, offset, length);
        try {
            long timestamp = in.readLong();
            Object value = serializer.deserialize(in);
            if (in.available() != 0) {
                throw new CorruptDataException("a record of " + length + " bytes on channel " + channel + " left "
                        + in.available() + " bytes unread: the two TaskManagers disagree on the record type");
            }
            batch.add(value, timestamp);
        } catch (IOException e) {
            throw new UncheckedIOException("Corrupt record on channel " + channel + ": " + e.getMessage(), e);
        }
    }

    private void checkLength(int length) {
        if (length < 8 || length > maxRecordBytes) {
            throw new UncheckedIOException(new CorruptDataException("a record on channel " + channel + " claims "
                    + length + " bytes (at least 8, at most " + maxRecordBytes + "): the stream is corrupt"));
        }
    }

    private void ensureSpill(int size) {
        if (spill.length < size) {
            spill = java.util.Arrays.copyOf(spill, Math.max(size, spill.length * 2));
        }
    }
}
