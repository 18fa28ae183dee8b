package dev.runnel.runtime.shuffle;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.ChannelEventCodec;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.zip.CRC32C;

/**
 * The index of a finished blocking partition (see {@link BlockingPartitionDescriptor}): where in the data file
 * each region of records lies and which subpartition it belongs to, in the order the producer wrote them, and
 * the events the producer sent after its records. Written once, when the producer finishes, under a temporary
 * name and then moved into place, so a reader finds either no index or a whole one; a CRC-32C over its bytes
 * catches a damaged file.
 *
 * <pre>
 *   int magic 'RNBI', int version, int subpartitions, int regions,
 *   regions x (int subpartition, long offset, int length), int events, events (ChannelEventCodec), int crc32c
 * </pre>
 *
 * Immutable; the scheduler reads {@link #bytes()} to size the consumer, the consumer's gate reads the regions.
 */
public final class BlockingPartitionIndex {

    private static final int MAGIC = 0x524e4249; // "RNBI"
    private static final int VERSION = 1;

    /** One run of records of one subpartition, {@code length} bytes at {@code offset} of the data file. */
    public record Region(int subpartition, long offset, int length) {}

    private final int subpartitions;
    private final List<Region> regions;
    private final List<ChannelEvent> events;

    public BlockingPartitionIndex(int subpartitions, List<Region> regions, List<ChannelEvent> events) {
        this.subpartitions = subpartitions;
        this.regions = List.copyOf(regions);
        this.events = List.copyOf(events);
    }

    /** Where the index of the partition whose data file is {@code dataFile} lies. */
    public static Path indexFileOf(String dataFile) {
        return Path.of(dataFile + ".index");
    }

    public int subpartitions() {
        return subpartitions;
    }

    /** The regions in the order they were written (per subpartition, the order of its records). */
    public List<Region> regions() {
        return regions;
    }

    /** The events the producer sent, to be delivered after its records and before its end of partition. */
    public List<ChannelEvent> events() {
        return events;
    }

    /** The bytes of records in the whole partition: the data volume its consumers take in. */
    public long bytes() {
        long total = 0;
        for (Region region : regions) {
            total += region.length();
        }
        return total;
    }

    /** Writes this index beside {@code dataFile}, atomically. */
    public void write(String dataFile) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64 + regions.size() * 16);
        out.writeInt(MAGIC);
        out.writeInt(VERSION);
        out.writeInt(subpartitions);
        out.writeInt(regions.size());
        for (Region region : regions) {
            out.writeInt(region.subpartition());
            out.writeLong(region.offset());
            out.writeInt(region.length());
        }
        out.writeInt(events.size());
        for (ChannelEvent event : events) {
            ChannelEventCodec.write(event, out);
        }
        CRC32C crc = new CRC32C();
        crc.update(out.getSharedBuffer(), 0, out.length());
        out.writeInt((int) crc.getValue());
        Path target = indexFileOf(dataFile);
        Path temporary = target.resolveSibling(target.getFileName() + ".inprogress");
        Files.write(temporary, out.getCopyOfBuffer());
        Files.move(temporary, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    }

    /**
     * Reads the index of the partition whose data file is {@code dataFile}.
     *
     * @throws CorruptDataException naming the file when it is missing (the producer never finished), truncated,
     *     damaged or of another version
     */
    public static BlockingPartitionIndex read(String dataFile) throws IOException {
        Path file = indexFileOf(dataFile);
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            throw new CorruptDataException("The blocking partition " + dataFile + " has no index (" + file
                    + "): its producer did not finish, or the file was removed. The consumer cannot read it; the job's"
                    + " attempt fails and its restart strategy decides whether it runs again.");
        }
        if (bytes.length < 24) {
            throw corrupt(file, "it has " + bytes.length + " bytes, fewer than any index");
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        if (in.readInt() != MAGIC) {
            throw corrupt(file, "it does not start with the index magic number");
        }
        int version = in.readInt();
        if (version != VERSION) {
            throw corrupt(file, "it has version " + version + ", this Runnel reads version " + VERSION);
        }
        in.setBuffer(bytes, bytes.length - 4, 4);
        if (in.readInt() != (int) crc.getValue()) {
            throw corrupt(file, "its checksum does not match its contents");
        }
        in.setBuffer(bytes, 8, bytes.length - 12);
        int subpartitions = in.readInt();
        int count = in.readInt();
        List<Region> regions = new ArrayList<>(Math.max(0, Math.min(count, bytes.length / 16)));
        for (int i = 0; i < count; i++) {
            Region region = new Region(in.readInt(), in.readLong(), in.readInt());
            if (region.subpartition() < 0 || region.subpartition() >= subpartitions || region.length() < 0) {
                throw corrupt(file, "region " + i + " is " + region + " in a partition of " + subpartitions
                        + " subpartitions");
            }
            regions.add(region);
        }
        int eventCount = in.readInt();
        List<ChannelEvent> events = new ArrayList<>();
        for (int i = 0; i < eventCount; i++) {
            events.add(ChannelEventCodec.read(in));
        }
        return new BlockingPartitionIndex(subpartitions, regions, events);
    }

    private static CorruptDataException corrupt(Path file, String what) {
        return new CorruptDataException("The blocking partition index " + file + " cannot be read: " + what
                + ". It was damaged or written by something else; the consumer cannot read its partition, and the"
                + " job's attempt fails.");
    }
}
