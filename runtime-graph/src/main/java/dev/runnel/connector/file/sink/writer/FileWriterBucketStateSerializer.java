package dev.runnel.connector.file.sink.writer;

import dev.runnel.core.io.SimpleVersionedSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;

/**
 * Writes {@link FileWriterBucketState}s into checkpoints. Version 1: bucket id and path (modified UTF-8), a
 * boolean for the in-progress part, then its file, target (UTF-8), creation time and length ({@code long}s).
 * Stateless; thread-safe.
 */
public final class FileWriterBucketStateSerializer implements SimpleVersionedSerializer<FileWriterBucketState> {

    public static final FileWriterBucketStateSerializer INSTANCE = new FileWriterBucketStateSerializer();

    private static final int VERSION = 1;

    private FileWriterBucketStateSerializer() {}

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(FileWriterBucketState state) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(256);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeUTF(state.getBucketId());
            out.writeUTF(state.getBucketPath());
            FileWriterBucketState.InProgressFile part = state.getInProgressFile();
            out.writeBoolean(part != null);
            if (part != null) {
                out.writeUTF(part.file());
                out.writeUTF(part.targetFile());
                out.writeLong(part.creationTime());
                out.writeLong(part.length());
            }
        }
        return bytes.toByteArray();
    }

    @Override
    public FileWriterBucketState deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Cannot read file sink writer state of version " + version
                    + "; this Runnel reads version " + VERSION);
        }
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(serialized))) {
            String bucketId = in.readUTF();
            String bucketPath = in.readUTF();
            FileWriterBucketState.InProgressFile part = in.readBoolean()
                    ? new FileWriterBucketState.InProgressFile(in.readUTF(), in.readUTF(), in.readLong(), in.readLong())
                    : null;
            return new FileWriterBucketState(bucketId, bucketPath, part);
        }
    }
}
