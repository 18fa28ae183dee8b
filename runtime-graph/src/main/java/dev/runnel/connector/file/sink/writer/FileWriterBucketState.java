package dev.runnel.connector.file.sink.writer;

import java.util.Objects;

/**
 * The checkpointed state of one bucket of a {@link FileWriter}: its id and directory and, if a part was in
 * progress at the checkpoint, that part's hidden file, final name, creation time and the length that belongs
 * to the checkpoint (bytes after it were written after the checkpoint and are cut off on recovery).
 * Immutable.
 */
public final class FileWriterBucketState {

    private final String bucketId;
    private final String bucketPath;
    private final InProgressFile inProgress;

    /**
     * @param bucketId the bucket's id
     * @param bucketPath its directory (absolute)
     * @param inProgress the part in progress at the checkpoint, or null
     */
    public FileWriterBucketState(String bucketId, String bucketPath, InProgressFile inProgress) {
        this.bucketId = Objects.requireNonNull(bucketId, "bucketId");
        this.bucketPath = Objects.requireNonNull(bucketPath, "bucketPath");
        this.inProgress = inProgress;
    }

    public String getBucketId() {
        return bucketId;
    }

    public String getBucketPath() {
        return bucketPath;
    }

    public boolean hasInProgressFile() {
        return inProgress != null;
    }

    /** The part in progress at the checkpoint, or null. */
    public InProgressFile getInProgressFile() {
        return inProgress;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FileWriterBucketState s && s.bucketId.equals(bucketId) && s.bucketPath.equals(bucketPath)
                && Objects.equals(s.inProgress, inProgress);
    }

    @Override
    public int hashCode() {
        return Objects.hash(bucketId, bucketPath, inProgress);
    }

    @Override
    public String toString() {
        return "FileWriterBucketState{bucket '" + bucketId + "' at " + bucketPath + ", in progress: " + inProgress + '}';
    }

    /**
     * A part in progress at a checkpoint.
     *
     * @param file the hidden file (absolute path)
     * @param targetFile the final name it will get (absolute path)
     * @param creationTime when it was opened (processing time, epoch milliseconds)
     * @param length how many of its bytes belong to the checkpoint
     */
    public record InProgressFile(String file, String targetFile, long creationTime, long length) {
        public InProgressFile {
            Objects.requireNonNull(file, "file");
            Objects.requireNonNull(targetFile, "targetFile");
        }
    }
}
