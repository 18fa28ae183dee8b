package dev.runnel.runtime.network.blocking;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.shuffle.BlockingPartitionIndex;
import dev.runnel.runtime.shuffle.BlockingPartitionIndex.Region;
import dev.runnel.runtime.shuffle.ResultPartitionDeploymentDescriptor;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The sending end of a blocking partition: serializes each record (timestamp, then value) into a staging buffer
 * of its subpartition and appends the buffer to the partition's data file as one region once it holds
 * {@link #REGION_BYTES}; {@link #finish()} writes the last regions and the index. Never backpressured: the
 * disk takes everything, and nobody reads before the producer finished.
 *
 * <p>Events: only watermarks and watermark status are meaningful in a BATCH exchange, and only their last value
 * (the final watermark) matters to a consumer that reads after the end; they are kept, the latest of each kind
 * in the order of their last occurrence, and delivered after the records. Checkpoint barriers cannot cross a
 * blocking exchange and are refused.
 *
 * <p>Producer task thread only.
 */
public final class BlockingResultPartitionWriter implements ResultPartitionWriter {

    /** Staged bytes per subpartition before they go to the file as one region. */
    static final int REGION_BYTES = 32 << 10;

    private final String dataFile;
    private final TypeSerializer<Object> serializer;
    private final DataOutputSerializer[] staging;
    private final FileChannel channel;
    private final List<Region> regions = new ArrayList<>();
    private final Map<ChannelEvent.Type, ChannelEvent> lastEvents = new LinkedHashMap<>();
    private long position;
    private boolean finished;

    @SuppressWarnings("unchecked")
    public BlockingResultPartitionWriter(ResultPartitionDeploymentDescriptor descriptor) {
        if (!descriptor.isBlocking()) {
            throw new IllegalArgumentException("edge " + descriptor.edgeId() + " is not a blocking partition");
        }
        if (descriptor.serializer() == null) {
            throw new IllegalArgumentException("blocking partition of edge " + descriptor.edgeId()
                    + " has no serializer: its records cannot be written to a file");
        }
        this.dataFile = descriptor.blocking().file();
        this.serializer = (TypeSerializer<Object>) descriptor.serializer();
        this.staging = new DataOutputSerializer[descriptor.blocking().subpartitions()];
        for (int i = 0; i < staging.length; i++) {
            staging[i] = new DataOutputSerializer(256);
        }
        try {
            Path path = Path.of(dataFile);
            Files.createDirectories(path.getParent());
            this.channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING,
                    StandardOpenOption.WRITE);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot create the blocking partition file " + dataFile + " of edge "
                    + descriptor.edgeId() + ": " + e.getMessage() + ". Check that io.tmp.dirs is writable and has room.",
                    e);
        }
    }

    @Override
    public int getNumberOfSubpartitions() {
        return staging.length;
    }

    @Override
    public boolean emitRecord(Object value, long timestamp, int subpartition) {
        DataOutputSerializer out = staging[subpartition];
        out.writeLong(timestamp);
        try {
            serializer.serialize(value, out);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot serialize a record for " + dataFile + ": " + e.getMessage(), e);
        }
        if (out.length() >= REGION_BYTES) {
            writeRegion(subpartition);
        }
        return true;
    }

    @Override
    public boolean broadcastRecord(Object value, long timestamp) {
        for (int i = 0; i < staging.length; i++) {
            emitRecord(value, timestamp, i);
        }
        return true;
    }

    @Override
    public void flushAll() {
        // Nobody reads before the end: staged records wait for a full region or finish().
    }

    @Override
    public void broadcastEvent(ChannelEvent event) {
        switch (event.type()) {
            case WATERMARK, WATERMARK_STATUS -> {
                lastEvents.remove(event.type());
                lastEvents.put(event.type(), event);
            }
            case END_OF_PARTITION -> finish();
            case CHECKPOINT_BARRIER, CANCEL_CHECKPOINT -> throw noCheckpoints(event);
        }
    }

    @Override
    public void broadcastPriorityEvent(ChannelEvent event) {
        throw noCheckpoints(event);
    }

    @Override
    public void finish() {
        if (finished) {
            return;
        }
        for (int i = 0; i < staging.length; i++) {
            if (staging[i].length() > 0) {
                writeRegion(i);
            }
        }
        try {
            channel.close();
            new BlockingPartitionIndex(staging.length, regions, new ArrayList<>(lastEvents.values())).write(dataFile);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot finish the blocking partition " + dataFile + ": " + e.getMessage(), e);
        }
        finished = true;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public CompletableFuture<Void> getAvailableFuture() {
        return AVAILABLE;
    }

    /** Closes the file; a partition that did not finish is deleted, so no consumer can mistake it for whole. */
    @Override
    public void close() {
        if (finished) {
            return;
        }
        try {
            channel.close();
            Files.deleteIfExists(Path.of(dataFile));
        } catch (IOException e) {
            // a failed task's leftovers: the job's working directory goes when the job ends
        }
    }

    private void writeRegion(int subpartition) {
        DataOutputSerializer out = staging[subpartition];
        ByteBuffer bytes = ByteBuffer.wrap(out.getSharedBuffer(), 0, out.length());
        try {
            while (bytes.hasRemaining()) {
                channel.write(bytes);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot write to the blocking partition " + dataFile + ": " + e.getMessage()
                    + ". Check that io.tmp.dirs has room.", e);
        }
        regions.add(new Region(subpartition, position, out.length()));
        position += out.length();
        out.clear();
    }

    private IllegalStateException noCheckpoints(ChannelEvent event) {
        return new IllegalStateException("A blocking exchange (" + dataFile + ") cannot carry " + event
                + ": BATCH jobs with blocking exchanges do not checkpoint");
    }
}
