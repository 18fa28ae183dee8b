package dev.runnel.connector.file.src;

import dev.runnel.core.fs.Path;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Writes {@link FileSourceSplit}s for checkpoints. Version 1: id and path as length-prefixed UTF-8,
 * then offset and file size as 8-byte longs. Stateless; thread-safe.
 */
public final class FileSourceSplitSerializer implements SimpleVersionedSerializer<FileSourceSplit> {

    /** The shared instance. */
    public static final FileSourceSplitSerializer INSTANCE = new FileSourceSplitSerializer();

    private static final int VERSION = 1;

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(FileSourceSplit split) {
        DataOutputSerializer out = new DataOutputSerializer(64);
        write(split, out);
        return out.getCopyOfBuffer();
    }

    @Override
    public FileSourceSplit deserialize(int version, byte[] serialized) throws IOException {
        checkVersion(version);
        DataInputDeserializer in = new DataInputDeserializer(serialized);
        FileSourceSplit split = read(in);
        if (in.available() != 0) {
            throw new IOException(in.available() + " unexpected bytes after a file source split");
        }
        return split;
    }

    /** The enumerator's checkpoint: the splits not assigned yet, in the same format. */
    static SimpleVersionedSerializer<Collection<FileSourceSplit>> pendingSplitsSerializer() {
        return new SimpleVersionedSerializer<>() {
            @Override
            public int getVersion() {
                return VERSION;
            }

            @Override
            public byte[] serialize(Collection<FileSourceSplit> splits) {
                DataOutputSerializer out = new DataOutputSerializer(256);
                out.writeVarInt(splits.size());
                for (FileSourceSplit split : splits) {
                    write(split, out);
                }
                return out.getCopyOfBuffer();
            }

            @Override
            public Collection<FileSourceSplit> deserialize(int version, byte[] serialized) throws IOException {
                checkVersion(version);
                DataInputDeserializer in = new DataInputDeserializer(serialized);
                int n = in.readLength("file source splits", 18);
                List<FileSourceSplit> splits = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    splits.add(read(in));
                }
                return splits;
            }
        };
    }

    private static void write(FileSourceSplit split, DataOutputSerializer out) {
        writeString(split.splitId(), out);
        writeString(split.path().toString(), out);
        out.writeLong(split.offset());
        out.writeLong(split.fileSize());
    }

    private static FileSourceSplit read(DataInputDeserializer in) throws IOException {
        String id = readString(in, "split id");
        String path = readString(in, "path");
        long offset = in.readLong();
        long fileSize = in.readLong();
        try {
            return new FileSourceSplit(id, new Path(path), offset, fileSize);
        } catch (IllegalArgumentException e) {
            throw new IOException("Corrupt file source split: " + e.getMessage(), e);
        }
    }

    private static void writeString(String s, DataOutputSerializer out) {
        byte[] bytes = s.getBytes(StandardCharsets.UTF_8);
        out.writeVarInt(bytes.length);
        out.write(bytes, 0, bytes.length);
    }

    private static String readString(DataInputDeserializer in, String what) throws IOException {
        byte[] bytes = new byte[in.readLength(what, 1)];
        in.readFully(bytes);
        return new String(bytes, StandardCharsets.UTF_8);
    }

    private static void checkVersion(int version) throws IOException {
        if (version != VERSION) {
            throw new IOException("Unknown file source split version " + version + " (this version reads "
                    + VERSION + ")");
        }
    }
}
