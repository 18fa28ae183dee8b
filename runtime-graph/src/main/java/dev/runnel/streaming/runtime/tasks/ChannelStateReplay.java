package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.metrics.Counter;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.state.InputChannelStateHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.function.Function;
import java.util.function.Predicate;

/**
 * The restored in-flight records of one input gate, handed out a batch at a time, channel after channel in
 * the order of the handles, before the task reads its live input: they were sent before the checkpoint's
 * barrier, so they come before everything the restored upstream tasks send now. Each handle's blob is read
 * whole when its turn comes (in-flight data of one channel is bounded by what the channel buffers).
 *
 * <p>A handle need not belong to a live channel of this task: after a rescale it may come from an old subtask
 * and an old producer, and is only read into the head operator. When one handle went to several new subtasks
 * (an ambiguous mapper), the handle's filter drops the records another subtask keeps; dropped records are not
 * counted as restored. Task thread only.
 */
final class ChannelStateReplay {

    private static final int BATCH_SIZE = 256;

    private final List<InputChannelStateHandle> handles;
    private final TypeSerializer<Object> serializer;
    private final Counter restoredRecords;
    private final String subtaskName;
    private final Function<InputChannelStateHandle, Predicate<Object>> filters;
    private Predicate<Object> filter;
    private final RecordBatch batch = new RecordBatch(BATCH_SIZE);
    private final DataInputDeserializer in = new DataInputDeserializer();
    private int nextHandle;
    private InputChannelStateHandle currentHandle;
    private long left;

    ChannelStateReplay(List<InputChannelStateHandle> handles, TypeSerializer<?> serializer, Counter restoredRecords,
            String subtaskName) {
        this(handles, serializer, restoredRecords, subtaskName, handle -> null);
    }

    /** As above; {@code filters} gives each handle's filter of the records to keep, or null to keep all. */
    @SuppressWarnings("unchecked")
    ChannelStateReplay(List<InputChannelStateHandle> handles, TypeSerializer<?> serializer, Counter restoredRecords,
            String subtaskName, Function<InputChannelStateHandle, Predicate<Object>> filters) {
        this.filters = filters;
        this.handles = List.copyOf(handles);
        this.serializer = (TypeSerializer<Object>) serializer;
        this.restoredRecords = restoredRecords;
        this.subtaskName = subtaskName;
    }

    /** The next records (a batch reused between calls), or null once every handle is processed. */
    RecordBatch next() throws IOException {
        batch.clear();
        // A filter may drop a whole handle's records; go on until a batch has any, never hand out an empty one.
        while (batch.size() == 0) {
            while (left == 0) {
                if (nextHandle == handles.size()) {
                    return null;
                }
                open(handles.get(nextHandle++));
            }
            while (left > 0 && batch.size() < batch.capacity()) {
                long timestamp = in.readLong();
                Object value = serializer.deserialize(in);
                left--;
                if (filter == null || filter.test(value)) {
                    batch.add(value, timestamp);
                }
            }
            if (left == 0 && in.available() > 0) {
                throw new IOException(String.format("%s: the in-flight records of %s hold %d bytes after the last of"
                        + " their %d records; the channel state was written with another serializer or is corrupt",
                        subtaskName, currentHandle, in.available(), currentHandle.records()));
            }
        }
        restoredRecords.inc(batch.size());
        return batch;
    }

    private void open(InputChannelStateHandle handle) throws IOException {
        if (serializer == null) {
            throw new IOException(subtaskName + " cannot restore " + handle + ": its input has no serializer");
        }
        long size = handle.getStateSize();
        if (size > Integer.MAX_VALUE) {
            throw new IOException(subtaskName + ": " + handle + " is too large to restore (" + size + " bytes)");
        }
        ByteBuffer bytes = ByteBuffer.allocate((int) size);
        try (SeekableByteChannel channel = handle.delegate().openChannel()) {
            while (bytes.hasRemaining() && channel.read(bytes) >= 0) {
                // read on
            }
        }
        if (bytes.hasRemaining()) {
            throw new IOException(subtaskName + ": " + handle + " is shorter than recorded (" + bytes.position() + " of "
                    + size + " bytes)");
        }
        in.setBuffer(bytes.array());
        currentHandle = handle;
        filter = filters.apply(handle);
        left = handle.records();
    }
}
