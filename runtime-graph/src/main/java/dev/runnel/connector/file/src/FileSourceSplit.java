package dev.runnel.connector.file.src;

import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.core.fs.Path;
import java.util.Objects;

/**
 * One whole file of a {@link FileSource}, and how far it has been read: {@link #offset()} is the byte
 * offset where reading starts (0 for a fresh split; a checkpointed position for a restored one).
 * Immutable; thread-safe.
 */
public final class FileSourceSplit implements SourceSplit {

    private final String id;
    private final Path path;
    private final long offset;
    private final long fileSize;

    /**
     * @param id the split's id, unique within the source; not null
     * @param path the file; not null
     * @param offset where reading starts, in bytes; not negative
     * @param fileSize the file's size when it was listed (informational), in bytes; not negative
     */
    public FileSourceSplit(String id, Path path, long offset, long fileSize) {
        this.id = Objects.requireNonNull(id, "id");
        this.path = Objects.requireNonNull(path, "path");
        if (offset < 0 || fileSize < 0) {
            throw new IllegalArgumentException("split " + id + " of " + path + ": negative offset (" + offset
                    + ") or file size (" + fileSize + ")");
        }
        this.offset = offset;
        this.fileSize = fileSize;
    }

    @Override
    public String splitId() {
        return id;
    }

    /** The file. */
    public Path path() {
        return path;
    }

    /** The byte offset where reading starts (or resumes). */
    public long offset() {
        return offset;
    }

    /** The file's size when the enumerator listed it. */
    public long fileSize() {
        return fileSize;
    }

    /** The same file, resuming at {@code newOffset}. */
    public FileSourceSplit updateWithCheckpointedPosition(long newOffset) {
        return new FileSourceSplit(id, path, newOffset, fileSize);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof FileSourceSplit other && id.equals(other.id) && path.equals(other.path)
                && offset == other.offset && fileSize == other.fileSize;
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, path, offset, fileSize);
    }

    @Override
    public String toString() {
        return "FileSourceSplit{" + id + ": " + path + " @ " + offset + " of " + fileSize + " bytes}";
    }
}
