package dev.runnel.runtime.state.rocksdb;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotReader;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotWriter;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The meta blob of a file-based RocksDB snapshot ({@link dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle}):
 * what a restore needs besides the database files to turn them back into a backend.
 *
 * <pre>
 *   int    magic "RNRM"          int version
 *   int    first key group       int last key group (inclusive; the range the database holds)
 *   varint length, bytes         a canonical snapshot of no key groups: its header is every state's
 *                                {@link StateMetaInfo} (name = column family, kind, serializer identities,
 *                                timer queues included), in the backend's registration order
 *   varint file count, then per file: name, size (long), CRC-32C (int) of its bytes
 * </pre>
 *
 * The states are written by {@link KeyedSnapshotWriter} and read by {@link KeyedSnapshotReader}, so the
 * metadata of a state is encoded and checked exactly as in a canonical snapshot. The file checksums let a
 * restore tell a damaged or truncated download from RocksDB's own errors, and name the file.
 *
 * <p>Immutable; stateless codec.
 *
 * @param range the key groups the database holds
 * @param states the states, whose column families the database has (besides the default one)
 * @param files every file of the database by name, with its size and checksum
 */
record RocksDBCheckpointMeta(KeyGroupRange range, List<StateMetaInfo> states, Map<String, FileInfo> files) {

    static final int MAGIC = 0x524E524D;
    static final int VERSION = 1;

    /** A database file's size and CRC-32C, as it was uploaded. */
    record FileInfo(long size, int crc) {}

    RocksDBCheckpointMeta {
        states = List.copyOf(states);
        files = Map.copyOf(files);
    }

    void writeTo(OutputStream out) throws IOException {
        ByteArrayOutputStream canonical = new ByteArrayOutputStream(256);
        KeyedSnapshotWriter.start(canonical, KeyGroupRange.EMPTY_KEY_GROUP_RANGE, states).finish();
        DataOutputSerializer buffer = new DataOutputSerializer(512);
        buffer.writeInt(MAGIC);
        buffer.writeInt(VERSION);
        buffer.writeInt(range.getStartKeyGroup());
        buffer.writeInt(range.getEndKeyGroup());
        byte[] header = canonical.toByteArray();
        buffer.writeVarInt(header.length);
        buffer.write(header, 0, header.length);
        buffer.writeVarInt(files.size());
        for (Map.Entry<String, FileInfo> file : new java.util.TreeMap<>(files).entrySet()) {
            byte[] name = file.getKey().getBytes(StandardCharsets.UTF_8);
            buffer.writeVarInt(name.length);
            buffer.write(name, 0, name.length);
            buffer.writeLong(file.getValue().size());
            buffer.writeInt(file.getValue().crc());
        }
        out.write(buffer.getSharedBuffer(), 0, buffer.length());
    }

    /**
     * Reads the meta blob {@code handle}.
     *
     * @param snapshot names the snapshot in messages
     * @throws CorruptDataException naming the snapshot and the blob when it is not a meta blob or damaged
     */
    static RocksDBCheckpointMeta read(StreamStateHandle handle, String snapshot) throws IOException {
        byte[] bytes;
        try (SeekableByteChannel channel = handle.openChannel(); InputStream in = Channels.newInputStream(channel)) {
            bytes = in.readAllBytes();
        } catch (IOException e) {
            throw new IOException(String.format("Cannot read the meta data %s of %s: %s", handle.describe(), snapshot,
                    e), e);
        }
        DataInputDeserializer in = new DataInputDeserializer(bytes);
        try {
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw new CorruptDataException(String.format("bad magic 0x%08X (expected 0x%08X 'RNRM')", magic, MAGIC));
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new CorruptDataException("unsupported version " + version + " (this reader reads " + VERSION + ")");
            }
            KeyGroupRange range = KeyGroupRange.of(in.readInt(), in.readInt());
            byte[] header = readBytes(in, "the state descriptions");
            List<StateMetaInfo> states;
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(KeyGroupsStateHandle.inMemory(
                    "states of " + snapshot, header, new KeyGroupRangeOffsets(KeyGroupRange.EMPTY_KEY_GROUP_RANGE)))) {
                states = reader.getStateMetaInfos();
            }
            int count = in.readVarInt();
            if (count < 0 || count > in.available()) {
                throw new CorruptDataException("bogus file count " + count);
            }
            Map<String, FileInfo> files = new LinkedHashMap<>();
            for (int i = 0; i < count; i++) {
                String name = new String(readBytes(in, "a file name"), StandardCharsets.UTF_8);
                files.put(name, new FileInfo(in.readLong(), in.readInt()));
            }
            if (in.available() != 0) {
                throw new CorruptDataException(in.available() + " unexpected bytes at the end");
            }
            return new RocksDBCheckpointMeta(range, states, files);
        } catch (IOException e) {
            throw new CorruptDataException(String.format("The meta data %s of %s cannot be read: %s. Restore from "
                    + "another checkpoint.", handle.describe(), snapshot, e.getMessage()), e);
        }
    }

    private static byte[] readBytes(DataInputDeserializer in, String what) throws IOException {
        int length = in.readVarInt();
        if (length < 0 || length > in.available()) {
            throw new CorruptDataException(what + " claims " + length + " bytes but only " + in.available() + " remain");
        }
        byte[] bytes = new byte[length];
        in.readFully(bytes, 0, length);
        return bytes;
    }
}
