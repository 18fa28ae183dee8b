package dev.runnel.runtime.state;

import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * A keyed-state snapshot in Runnel's backend-independent format: one blob of bytes and where each key
 * group starts in it. Restores open the blob, seek to the key groups they own, and read only those, so a
 * rescaled subtask never reads a whole old subtask's snapshot when it owns part of it. Immutable.
 */
public final class KeyGroupsStateHandle implements KeyedStateHandle {

    private static final long serialVersionUID = 1L;

    private final KeyGroupRangeOffsets offsets;
    private final StreamStateHandle delegate;

    public KeyGroupsStateHandle(KeyGroupRangeOffsets offsets, StreamStateHandle delegate) {
        this.offsets = Objects.requireNonNull(offsets, "offsets");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    /** A snapshot held in memory ({@code data} is not copied and must not change). */
    public static KeyGroupsStateHandle inMemory(String name, byte[] data, KeyGroupRangeOffsets offsets) {
        return new KeyGroupsStateHandle(offsets, new ByteStreamStateHandle(name, data));
    }

    /** A snapshot in a file of {@code size} bytes. */
    public static KeyGroupsStateHandle inFile(Path file, long size, KeyGroupRangeOffsets offsets) {
        return new KeyGroupsStateHandle(offsets, new FileStateHandle(file, size));
    }

    public KeyGroupRangeOffsets getKeyGroupRangeOffsets() {
        return offsets;
    }

    /** The blob the snapshot is in. */
    public StreamStateHandle getDelegateStateHandle() {
        return delegate;
    }

    /** Opens the snapshot bytes for reading; the caller closes the channel. */
    public SeekableByteChannel openChannel() throws IOException {
        return delegate.openChannel();
    }

    @Override
    public KeyGroupRange getKeyGroupRange() {
        return offsets.getKeyGroupRange();
    }

    @Override
    public long getStateSize() {
        return delegate.getStateSize();
    }

    @Override
    public String describe() {
        return delegate.describe();
    }

    @Override
    public void discardState() throws IOException {
        delegate.discardState();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyGroupsStateHandle other && offsets.equals(other.offsets)
                && delegate.equals(other.delegate);
    }

    @Override
    public int hashCode() {
        return 31 * offsets.hashCode() + delegate.hashCode();
    }

    @Override
    public String toString() {
        return "KeyGroupsStateHandle{" + delegate.describe() + ", " + offsets.getKeyGroupRange() + '}';
    }
}
