package dev.runnel.runtime.state.storage;

import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Writes one blob of checkpoint state to a new file with a unique name in its folder, or keeps it in
 * memory if it stays small.
 *
 * <p>Bytes collect in a buffer of {@code max(writeBufferSize, memoryThreshold)} bytes. While nothing was
 * written out and the blob is at most {@code memoryThreshold} bytes, {@link #closeAndGetHandle()} returns a
 * {@link ByteStreamStateHandle} and no file is ever created (the bytes then travel inline in the
 * checkpoint's metadata). Once the buffer overflows, the file is created ({@code CREATE_NEW}) and the
 * buffer is written through to it whenever it fills; large writes go straight to the file.
 * {@link #closeAndGetHandle()} flushes, forces the file to disk and returns a {@link FileStateHandle}.
 *
 * <p>Anything that goes wrong (a failed write, a failed sync) deletes the file before the exception leaves,
 * and {@link #close()} without {@code closeAndGetHandle()} deletes it too: a stream never leaves a partial
 * file behind. One thread at a time, as {@link CheckpointStateOutputStream} says; not reusable.
 */
public final class FsCheckpointStateOutputStream extends CheckpointStateOutputStream {

    private final Path file;
    private final int memoryThreshold;
    private final String inlineName;
    private final Consumer<Path> onFileCreated;
    private final byte[] buffer;

    private int buffered;
    private long flushed;
    private FileChannel channel;
    private boolean closed;

    /**
     * @param file the file to create if the blob grows beyond {@code memoryThreshold}; must not exist
     * @param writeBufferSize bytes buffered between writes to the file
     * @param memoryThreshold blobs of at most this many bytes stay in memory ({@code 0}: only empty ones)
     * @param inlineName names an in-memory blob in messages
     * @param onFileCreated told of the file once it exists (before any byte is in it), e.g. to delete it if
     *     the checkpoint fails; may be a no-op
     */
    public FsCheckpointStateOutputStream(Path file, int writeBufferSize, int memoryThreshold, String inlineName,
            Consumer<Path> onFileCreated) {
        if (writeBufferSize < 1 || memoryThreshold < 0) {
            throw new IllegalArgumentException("write buffer size " + writeBufferSize + " must be positive and"
                    + " memory threshold " + memoryThreshold + " not negative");
        }
        this.file = Objects.requireNonNull(file, "file");
        this.memoryThreshold = memoryThreshold;
        this.inlineName = Objects.requireNonNull(inlineName, "inlineName");
        this.onFileCreated = Objects.requireNonNull(onFileCreated, "onFileCreated");
        this.buffer = new byte[Math.max(writeBufferSize, memoryThreshold)];
    }

    @Override
    public void write(int b) throws IOException {
        checkOpen();
        if (buffered == buffer.length) {
            flushBuffer();
        }
        buffer[buffered++] = (byte) b;
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        checkOpen();
        if (len <= buffer.length - buffered) {
            System.arraycopy(b, off, buffer, buffered, len);
            buffered += len;
            return;
        }
        // Does not fit: the blob is going to be a file. Empty the buffer, then either write a large chunk
        // through without copying or start filling the buffer again.
        flushBuffer();
        if (len >= buffer.length) {
            writeToFile(ByteBuffer.wrap(b, off, len));
        } else {
            System.arraycopy(b, off, buffer, 0, len);
            buffered = len;
        }
    }

    @Override
    public long getPos() {
        return flushed + buffered;
    }

    /** Writes the buffer to the file, which is created the first time. */
    @Override
    public void flush() throws IOException {
        checkOpen();
        // Flushing a blob that could still stay in memory would create a file for nothing.
        if (channel != null || getPos() > memoryThreshold) {
            flushBuffer();
        }
    }

    @Override
    public StreamStateHandle closeAndGetHandle() throws IOException {
        checkOpen();
        if (channel == null && buffered <= memoryThreshold) {
            closed = true;
            byte[] data = java.util.Arrays.copyOf(buffer, buffered);
            return new ByteStreamStateHandle(inlineName, data);
        }
        flushBuffer(); // deletes the file itself if it fails
        try {
            channel.force(true);
            channel.close();
            closed = true;
            return new FileStateHandle(file, flushed);
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
    }

    /** Abandons the blob: deletes the file if there is one. Idempotent; a no-op after closeAndGetHandle. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        deleteQuietly();
    }

    /** The file this stream writes (or would write) to. */
    public Path getFile() {
        return file;
    }

    private void flushBuffer() throws IOException {
        if (buffered == 0 && channel != null) {
            return;
        }
        writeToFile(ByteBuffer.wrap(buffer, 0, buffered));
        buffered = 0;
    }

    private void writeToFile(ByteBuffer bytes) throws IOException {
        try {
            if (channel == null) {
                channel = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
                onFileCreated.accept(file);
            }
            while (bytes.hasRemaining()) {
                flushed += channel.write(bytes);
            }
        } catch (IOException | RuntimeException e) {
            throw failed(e);
        }
    }

    /** Deletes what was written and closes the stream; returns the cause, with the file named, to throw. */
    private IOException failed(Exception cause) {
        closed = true;
        deleteQuietly();
        return new IOException("Could not write checkpoint state file " + file + ": " + cause.getMessage()
                + ". The partial file was deleted", cause);
    }

    private void deleteQuietly() {
        try {
            if (channel != null) {
                channel.close();
            }
        } catch (IOException ignored) {
            // The file is deleted next; a failing close changes nothing about that.
        }
        try {
            Files.deleteIfExists(file);
        } catch (IOException ignored) {
            // Best effort: the checkpoint this belonged to is abandoned, and its folder goes with it.
        }
    }

    private void checkOpen() throws IOException {
        if (closed) {
            throw new IOException("Checkpoint state stream for " + file + " is closed");
        }
    }
}
