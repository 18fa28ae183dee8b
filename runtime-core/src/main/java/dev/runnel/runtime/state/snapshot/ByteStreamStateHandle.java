package dev.runnel.runtime.state.snapshot;

import dev.runnel.runtime.state.StreamStateHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.NonWritableChannelException;
import java.nio.channels.SeekableByteChannel;
import java.util.Objects;

/**
 * State bytes held in memory as a byte array: for small state, tests, and snapshots shipped inside
 * messages.
 *
 * <p>Immutable once built: the handle takes the array as it is and never changes it; the caller must
 * not change it either. Channels opened on it are read-only and independent, so several restores
 * may read it at once.
 */
public final class ByteStreamStateHandle implements StreamStateHandle {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final byte[] data;

    /**
     * @param name names the snapshot in messages (e.g. "checkpoint 7, operator map-1")
     * @param data the snapshot bytes, from the first header byte on; not copied
     */
    public ByteStreamStateHandle(String name, byte[] data) {
        this.name = Objects.requireNonNull(name, "name");
        this.data = Objects.requireNonNull(data, "data");
    }

    /** The name given when the handle was made (kept with the bytes in checkpoint metadata). */
    public String getName() {
        return name;
    }

    /** The snapshot bytes; do not modify. */
    public byte[] getData() {
        return data;
    }

    @Override
    public SeekableByteChannel openChannel() {
        return new ByteArrayChannel(data);
    }

    @Override
    public long getStateSize() {
        return data.length;
    }

    @Override
    public String describe() {
        return "'" + name + "' (in memory, " + data.length + " bytes)";
    }

    @Override
    public void discardState() {}

    /** Equal when name and bytes are equal (a value, like a loaded copy of the same inline state). */
    @Override
    public boolean equals(Object o) {
        return o instanceof ByteStreamStateHandle other && name.equals(other.name)
                && java.util.Arrays.equals(data, other.data);
    }

    @Override
    public int hashCode() {
        return 31 * name.hashCode() + java.util.Arrays.hashCode(data);
    }

    @Override
    public String toString() {
        return "ByteStreamStateHandle{" + describe() + '}';
    }

    /** A read-only channel over an array. */
    private static final class ByteArrayChannel implements SeekableByteChannel {
        private final byte[] data;
        private int position;
        private boolean open = true;

        ByteArrayChannel(byte[] data) {
            this.data = data;
        }

        @Override
        public int read(ByteBuffer dst) throws IOException {
            checkOpen();
            if (position >= data.length) {
                return -1;
            }
            int n = Math.min(dst.remaining(), data.length - position);
            dst.put(data, position, n);
            position += n;
            return n;
        }

        @Override
        public int write(ByteBuffer src) {
            throw new NonWritableChannelException();
        }

        @Override
        public long position() throws IOException {
            checkOpen();
            return position;
        }

        @Override
        public SeekableByteChannel position(long newPosition) throws IOException {
            checkOpen();
            if (newPosition < 0) {
                throw new IllegalArgumentException("negative position " + newPosition);
            }
            position = (int) Math.min(newPosition, data.length);
            return this;
        }

        @Override
        public long size() throws IOException {
            checkOpen();
            return data.length;
        }

        @Override
        public SeekableByteChannel truncate(long size) {
            throw new NonWritableChannelException();
        }

        @Override
        public boolean isOpen() {
            return open;
        }

        @Override
        public void close() {
            open = false;
        }

        private void checkOpen() throws ClosedChannelException {
            if (!open) {
                throw new ClosedChannelException();
            }
        }
    }
}
