package dev.runnel.connector.file.sink;

import java.io.Serializable;
import java.util.Objects;

/**
 * What a {@link FileSink} writer hands to its committer at a checkpoint: one pending part file, closed and
 * synced under its hidden in-progress name, to be renamed to its final name when the checkpoint completes.
 * Immutable.
 */
public final class FileSinkCommittable implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String bucketId;
    private final String pendingFile;
    private final String targetFile;
    private final long size;

    /**
     * @param bucketId the bucket the part belongs to
     * @param pendingFile the hidden in-progress file (absolute path)
     * @param targetFile the final name it is renamed to (absolute path)
     * @param size its length in bytes, as written
     */
    public FileSinkCommittable(String bucketId, String pendingFile, String targetFile, long size) {
        this.bucketId = Objects.requireNonNull(bucketId, "bucketId");
        this.pendingFile = Objects.requireNonNull(pendingFile, "pendingFile");
        this.targetFile = Objects.requireNonNull(targetFile, "targetFile");
        this.size = size;
    }

    public String getBucketId() {
        return bucketId;
    }

    /** The hidden file that holds the part until it is committed. */
    public String getPendingFile() {
        return pendingFile;
    }

    /** The visible name the part gets when committed. */
    public String getTargetFile() {
        return targetFile;
    }

    public long getSize() {
        return size;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FileSinkCommittable c && c.bucketId.equals(bucketId) && c.pendingFile.equals(pendingFile)
                && c.targetFile.equals(targetFile) && c.size == size;
    }

    @Override
    public int hashCode() {
        return Objects.hash(bucketId, pendingFile, targetFile, size);
    }

    @Override
    public String toString() {
        return "FileSinkCommittable{" + pendingFile + " -> " + targetFile + ", " + size + " bytes}";
    }
}
