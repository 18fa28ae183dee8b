package dev.runnel.runtime.state;

import java.io.IOException;
import java.io.OutputStream;

/**
 * A stream that writes one blob of checkpoint state (a file in the checkpoint's folder, or memory for tiny
 * state). {@link #closeAndGetHandle()} completes the blob and returns where it is; {@link #close()} without
 * it abandons the blob and deletes what was written. One thread at a time; not reusable.
 */
public abstract class CheckpointStateOutputStream extends OutputStream {

    /** The number of bytes written so far: the offset the next byte will have in the blob. */
    public abstract long getPos() throws IOException;

    /**
     * Flushes, syncs and closes the blob and returns its handle.
     *
     * @throws IOException if writing or syncing fails; the partial blob is deleted then
     */
    public abstract StreamStateHandle closeAndGetHandle() throws IOException;

    /** Abandons the blob unless {@link #closeAndGetHandle()} was called: deletes what was written. */
    @Override
    public abstract void close() throws IOException;
}
