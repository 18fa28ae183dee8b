package dev.runnel.connector.file.sink;

import dev.runnel.core.io.SimpleVersionedSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Writes {@link FileSinkCommittable}s into checkpoints. Version 1: bucket id, pending file and target file as
 * modified UTF-8 ({@code DataOutput.writeUTF}), then the size as a {@code long}. Stateless; thread-safe.
 */
public final class FileSinkCommittableSerializer implements SimpleVersionedSerializer<FileSinkCommittable> {

    public static final FileSinkCommittableSerializer INSTANCE = new FileSinkCommittableSerializer();

    private static final int VERSION = 1;

    private FileSinkCommittableSerializer() {}

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(FileSinkCommittable committable) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(committable.getBucketId());
            out.writeUTF(committable.getPendingFile());
            out.writeUTF(committable.getTargetFile());
            out.writeLong(committable.getSize());
        }
        return bytes.toByteArray();
    }

    @Override
    public FileSinkCommittable deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Cannot read a file sink committable of version " + version
                    + "; this Runnel reads version " + VERSION);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            return new FileSinkCommittable(in.readUTF(), in.readUTF(), in.readUTF(), in.readLong());
        }
    }
}
