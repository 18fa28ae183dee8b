package dev.runnel.runtime.network.blocking;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.shuffle.BlockingChannelDescriptor;
import dev.runnel.runtime.shuffle.BlockingPartitionIndex;
import dev.runnel.runtime.shuffle.BlockingPartitionIndex.Region;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import java.io.EOFException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The receiving end of an input whose producers wrote blocking partitions and finished: channel {@code i} reads
 * the subpartition range its {@link BlockingChannelDescriptor} names from one producer's file — the records of
 * those subpartitions region by region in the order they were written, then the producer's events, then its end
 * of partition. Everything is on disk already, so the gate is available until it is finished, and serves one
 * channel to its end before the next (order between channels means nothing in BATCH: the operators' results are
 * final only at the end of all input).
 *
 * <p>A missing, damaged or foreign file fails the read with a {@link CorruptDataException} naming it; no record is
 * skipped silently. Consumer task thread only.
 */
public final class BlockingInputGate implements InputGate {

    private static final int BATCH_SIZE = 512;

    private final TypeSerializer<Object> serializer;
    private final ChannelReader[] channels;
    private final boolean[] blocked;
    private final DataInputDeserializer input = new DataInputDeserializer();
    private RecordBatch spare;
    private int current;
    private int lastChannel = -1;
    private int finishedChannels;

    @SuppressWarnings("unchecked")
    public BlockingInputGate(InputGateDeploymentDescriptor descriptor) {
        if (!descriptor.isBlocking()) {
            throw new IllegalArgumentException("input " + descriptor.inputIndex() + " does not read blocking partitions");
        }
        this.serializer = (TypeSerializer<Object>) descriptor.serializer();
        List<BlockingChannelDescriptor> described = descriptor.blocking();
        this.channels = new ChannelReader[described.size()];
        for (int i = 0; i < channels.length; i++) {
            channels[i] = new ChannelReader(described.get(i));
        }
        this.blocked = new boolean[channels.length];
    }

    @Override
    public int getNumberOfInputChannels() {
        return channels.length;
    }

    @Override
    public RecordBatch pollNext() {
        for (int tried = 0; tried < channels.length; tried++) {
            int channel = (current + tried) % channels.length;
            if (blocked[channel] || channels[channel].ended) {
                continue;
            }
            current = channel;
            lastChannel = channel;
            try {
                return channels[channel].next();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return null;
    }

    @Override
    public boolean isAvailable() {
        for (int channel = 0; channel < channels.length; channel++) {
            if (!blocked[channel] && !channels[channel].ended) {
                return true;
            }
        }
        return false;
    }

    @Override
    public CompletableFuture<Void> getAvailableFuture() {
        // Blocked channels are released by the task itself; with nothing to read the gate is finished.
        return AVAILABLE;
    }

    @Override
    public int lastChannel() {
        return lastChannel;
    }

    @Override
    public void recycle(RecordBatch batch) {
        batch.clear();
        spare = batch;
    }

    @Override
    public void blockChannel(int channel) {
        blocked[channel] = true;
    }

    @Override
    public boolean isBlocked(int channel) {
        return blocked[channel];
    }

    @Override
    public void resumeAllChannels() {
        java.util.Arrays.fill(blocked, false);
    }

    @Override
    public boolean isFinished() {
        return finishedChannels == channels.length;
    }

    @Override
    public void close() {
        for (ChannelReader channel : channels) {
            channel.close();
        }
    }

    /** One producer's file, restricted to a subpartition range; opened at its first read. */
    private final class ChannelReader {
        private final BlockingChannelDescriptor descriptor;
        private List<Region> regions;
        private List<dev.runnel.runtime.io.ChannelEvent> events;
        private FileChannel file;
        private int nextRegion;
        private int nextEvent;
        private Region region;
        private byte[] buffer = new byte[0];
        private int regionPosition;
        private int regionLength;
        private boolean ended;

        ChannelReader(BlockingChannelDescriptor descriptor) {
            this.descriptor = descriptor;
        }

        RecordBatch next() throws IOException {
            if (regions == null) {
                open();
            }
            if (region != null || advanceRegion()) {
                return readRecords();
            }
            if (nextEvent < events.size()) {
                return RecordBatch.ofEvent(events.get(nextEvent++));
            }
            ended = true;
            finishedChannels++;
            close();
            return RecordBatch.ofEvent(EndOfPartitionEvent.INSTANCE);
        }

        private void open() throws IOException {
            BlockingPartitionIndex index = BlockingPartitionIndex.read(descriptor.file());
            if (descriptor.endSubpartition() > index.subpartitions()) {
                throw new CorruptDataException("The blocking partition " + descriptor.file() + " has "
                        + index.subpartitions() + " subpartitions, but this consumer was deployed to read ["
                        + descriptor.firstSubpartition() + ", " + descriptor.endSubpartition() + ")");
            }
            List<Region> owned = new ArrayList<>();
            for (Region r : index.regions()) {
                if (r.subpartition() >= descriptor.firstSubpartition() && r.subpartition() < descriptor.endSubpartition()) {
                    owned.add(r);
                }
            }
            regions = owned;
            events = index.events();
            file = FileChannel.open(Path.of(descriptor.file()), StandardOpenOption.READ);
        }

        /** Loads the next region into the buffer; false when none is left. */
        private boolean advanceRegion() throws IOException {
            if (nextRegion == regions.size()) {
                return false;
            }
            region = regions.get(nextRegion++);
            if (buffer.length < region.length()) {
                buffer = new byte[Math.max(region.length(), BlockingResultPartitionWriter.REGION_BYTES * 2)];
            }
            ByteBuffer target = ByteBuffer.wrap(buffer, 0, region.length());
            long at = region.offset();
            while (target.hasRemaining()) {
                int read = file.read(target, at + target.position());
                if (read < 0) {
                    throw new CorruptDataException("The blocking partition " + descriptor.file() + " ends inside "
                            + region + ": the file was truncated after its producer finished");
                }
            }
            regionPosition = 0;
            regionLength = region.length();
            return true;
        }

        private RecordBatch readRecords() throws IOException {
            RecordBatch batch = spare != null ? spare : new RecordBatch(BATCH_SIZE);
            spare = null;
            input.setBuffer(buffer, regionPosition, regionLength - regionPosition);
            try {
                while (input.available() > 0 && batch.size() < batch.capacity()) {
                    long timestamp = input.readLong();
                    batch.add(serializer.deserialize(input), timestamp);
                }
            } catch (EOFException | RuntimeException e) {
                throw new CorruptDataException("A record in " + region + " of the blocking partition "
                        + descriptor.file() + " cannot be read with " + serializer.getClass().getSimpleName() + ": "
                        + e + ". The file was damaged, or the producer wrote another type", e);
            }
            regionPosition = regionLength - input.available();
            if (input.available() == 0) {
                region = null;
            }
            return batch;
        }

        void close() {
            if (file != null) {
                try {
                    file.close();
                } catch (IOException e) {
                    // read-only: nothing is lost
                }
                file = null;
            }
        }
    }
}
