package dev.runnel.runtime.state.storage;

import dev.runnel.runtime.checkpoint.CheckpointStorageAccess;
import java.io.IOException;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Checkpoints and savepoints on a file system (local paths or {@code file:} URIs): where they go and how
 * state is written. {@link #createCheckpointStorage(String)} gives each job its {@link CheckpointStorageAccess}
 * under {@code <checkpoint directory>/<job id>/} (the layout is on {@link FsCheckpointStorageAccess}).
 *
 * <p>Blobs of state at most {@link #getMinFileSizeThreshold() the memory threshold} long
 * ({@code state.storage.fs.memory-threshold}, default {@value #DEFAULT_FILE_STATE_THRESHOLD} bytes) are not
 * written to files but kept inline in the checkpoint's {@code _metadata}: many tiny files cost more than the
 * bytes in them. Larger blobs become files, written through a buffer of {@link #getWriteBufferSize()} bytes.
 *
 * <p>Takes plain values (the configuration options are read by whoever builds it). Immutable, serializable,
 * thread-safe; it holds no open resources.
 */
public final class FileSystemCheckpointStorage implements Serializable {

    private static final long serialVersionUID = 1L;

    /** 20 KiB, as in Flink. */
    public static final int DEFAULT_FILE_STATE_THRESHOLD = 20 * 1024;

    /** Inline state travels in the metadata, so its size is bounded (Flink's bound, 1 MiB). */
    public static final int MAX_FILE_STATE_THRESHOLD = 1024 * 1024;

    public static final int DEFAULT_WRITE_BUFFER_SIZE = 4096;

    private final String checkpointDirectory;
    private final String savepointDirectory;
    private final int fileStateThreshold;
    private final int writeBufferSize;

    /** Checkpoints under {@code checkpointDirectory} (a path or {@code file:} URI), no default savepoint folder. */
    public FileSystemCheckpointStorage(String checkpointDirectory) {
        this(checkpointDirectory, null, DEFAULT_FILE_STATE_THRESHOLD);
    }

    /**
     * @param checkpointDirectory {@code state.checkpoints.dir}: a path or {@code file:} URI; not null
     * @param savepointDirectory {@code state.savepoints.dir}, or null: savepoints then need a target folder
     * @param fileStateThreshold {@code state.storage.fs.memory-threshold} in bytes, 0 to
     *     {@value #MAX_FILE_STATE_THRESHOLD}
     */
    public FileSystemCheckpointStorage(String checkpointDirectory, String savepointDirectory, int fileStateThreshold) {
        this(checkpointDirectory, savepointDirectory, fileStateThreshold, DEFAULT_WRITE_BUFFER_SIZE);
    }

    /** As above, with the write buffer size ({@code state.storage.fs.write-buffer-size}); at least 1. */
    public FileSystemCheckpointStorage(String checkpointDirectory, String savepointDirectory, int fileStateThreshold,
            int writeBufferSize) {
        Objects.requireNonNull(checkpointDirectory, "checkpointDirectory");
        if (fileStateThreshold < 0 || fileStateThreshold > MAX_FILE_STATE_THRESHOLD) {
            throw new IllegalArgumentException(String.format("state.storage.fs.memory-threshold must be between 0"
                    + " and %d bytes, was %d", MAX_FILE_STATE_THRESHOLD, fileStateThreshold));
        }
        if (writeBufferSize < 1) {
            throw new IllegalArgumentException("state.storage.fs.write-buffer-size must be positive, was "
                    + writeBufferSize);
        }
        // Parsed now so a bad URI fails when the job is configured, not at its first checkpoint.
        this.checkpointDirectory = FsCheckpointStorageAccess.toLocalPath(checkpointDirectory).toString();
        this.savepointDirectory = savepointDirectory == null
                ? null : FsCheckpointStorageAccess.toLocalPath(savepointDirectory).toString();
        this.fileStateThreshold = fileStateThreshold;
        this.writeBufferSize = writeBufferSize;
    }

    /**
     * The storage of job {@code jobId}: creates {@code <checkpoint directory>/<job id>/} with its
     * {@code shared/} and {@code taskowned/} folders if they do not exist.
     *
     * @throws IOException naming the folder if it cannot be created or written
     */
    public FsCheckpointStorageAccess createCheckpointStorage(String jobId) throws IOException {
        Objects.requireNonNull(jobId, "jobId");
        if (jobId.isEmpty() || jobId.contains("/") || jobId.contains("\\") || jobId.equals("..") || jobId.equals(".")) {
            throw new IllegalArgumentException("job id '" + jobId + "' cannot name a folder");
        }
        return new FsCheckpointStorageAccess(jobId, getCheckpointPath().resolve(jobId),
                savepointDirectory == null ? null : Path.of(savepointDirectory), writeBufferSize, fileStateThreshold);
    }

    /** The base folder of checkpoints. */
    public Path getCheckpointPath() {
        return Path.of(checkpointDirectory);
    }

    /** The default savepoint folder, or null. */
    public Path getSavepointPath() {
        return savepointDirectory == null ? null : Path.of(savepointDirectory);
    }

    /** Blobs of at most this many bytes stay inline in the metadata. */
    public int getMinFileSizeThreshold() {
        return fileStateThreshold;
    }

    public int getWriteBufferSize() {
        return writeBufferSize;
    }

    @Override
    public String toString() {
        return "FileSystemCheckpointStorage{checkpoints " + checkpointDirectory + ", savepoints "
                + (savepointDirectory == null ? "(none)" : savepointDirectory) + ", memory threshold "
                + fileStateThreshold + " bytes}";
    }
}
