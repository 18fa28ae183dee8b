package dev.runnel.runtime.state.snapshot;

import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyedStateHandle;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;

/**
 * A keyed-state snapshot in a file: the whole file, from its first byte, is the snapshot.
 *
 * <p>Immutable. The file must not change or disappear while restores may use the handle; deleting it
 * is the owner's job. Serializable (it keeps the path as a string), so it can travel with a
 * checkpoint's metadata; the path must then be readable where the handle is used.
 */
public final class FileStateHandle implements KeyedStateHandle {

    private static final long serialVersionUID = 1L;

    private final String path;
    private final long stateSize;
    private final KeyGroupRangeOffsets offsets;

    /**
     * @param path the snapshot file
     * @param stateSize the number of bytes written to it (the file's size when complete)
     * @param offsets where each key group starts in the file
     */
    public FileStateHandle(Path path, long stateSize, KeyGroupRangeOffsets offsets) {
        this.path = Objects.requireNonNull(path, "path").toAbsolutePath().toString();
        if (stateSize < 0) {
            throw new IllegalArgumentException("stateSize must be >= 0, was " + stateSize);
        }
        this.stateSize = stateSize;
        this.offsets = Objects.requireNonNull(offsets, "offsets");
    }

    public Path getFilePath() {
        return Path.of(path);
    }

    @Override
    public KeyGroupRangeOffsets getKeyGroupRangeOffsets() {
        return offsets;
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
    public String toString() {
        return "FileStateHandle{" + path + ", " + stateSize + " bytes, " + offsets.getKeyGroupRange() + '}';
    }
}
