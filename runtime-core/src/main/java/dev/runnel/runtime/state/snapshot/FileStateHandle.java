package dev.runnel.runtime.state.snapshot;

import dev.runnel.runtime.state.StreamStateHandle;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * State bytes in a file: the whole file, from its first byte.
 *
 * <p>Immutable. The file must not change or disappear while restores may use the handle; deleting it
 * is the owner's job. Serializable (it keeps the path as a string), so it can travel with a
 * checkpoint's metadata; the path must then be readable where the handle is used.
 */
public final class FileStateHandle implements StreamStateHandle {

    private static final long serialVersionUID = 1L;

    private final String path;
    private final long stateSize;

    /**
     * @param path the file
     * @param stateSize the number of bytes written to it (the file's size when complete)
     */
    public FileStateHandle(Path path, long stateSize) {
        this.path = Objects.requireNonNull(path, "path").toAbsolutePath().toString();
        if (stateSize < 0) {
            throw new IllegalArgumentException("stateSize must be >= 0, was " + stateSize);
        }
        this.stateSize = stateSize;
    }

    public Path getFilePath() {
        return Path.of(path);
    }

    @Override
    public SeekableByteChannel openChannel() throws IOException {
        return Files.newByteChannel(getFilePath(), StandardOpenOption.READ);
    }

    @Override
    public long getStateSize() {
        return stateSize;
    }

    @Override
    public String describe() {
        return "file " + path;
    }

    @Override
    public void discardState() throws IOException {
        Files.deleteIfExists(getFilePath());
    }

    /**
     * Equal when both name the same file with the same recorded size: a checkpoint loaded again from its
     * metadata yields new handle objects for the same files, and the shared state registry must treat them
     * as the piece it already holds rather than as a second upload to delete.
     */
    @Override
    public boolean equals(Object o) {
        return o instanceof FileStateHandle other && path.equals(other.path) && stateSize == other.stateSize;
    }

    @Override
    public int hashCode() {
        return 31 * path.hashCode() + Long.hashCode(stateSize);
    }

    @Override
    public String toString() {
        return "FileStateHandle{" + path + ", " + stateSize + " bytes}";
    }
}
