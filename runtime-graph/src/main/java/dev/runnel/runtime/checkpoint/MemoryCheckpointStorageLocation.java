package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import java.io.ByteArrayOutputStream;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A snapshot location in memory, for a snapshot that only hands state from one set of tasks to the next in
 * this JVM (an in-place rescale): every blob stays a byte array, no file is written, and the snapshot is gone
 * with the handles. Thread-safe.
 */
final class MemoryCheckpointStorageLocation implements CheckpointStorageLocation, java.io.Serializable {

    private static final long serialVersionUID = 1L;

    private final long checkpointId;
    private final AtomicInteger blobs = new AtomicInteger();

    MemoryCheckpointStorageLocation(long checkpointId) {
        this.checkpointId = checkpointId;
    }

    @Override
    public long getCheckpointId() {
        return checkpointId;
    }

    @Override
    public String getExternalPointer() {
        return "memory:snapshot-" + checkpointId;
    }

    @Override
    public void writeMetadata(CompletedCheckpoint checkpoint) {
        // nothing to write: the completed snapshot is handed over as an object
    }

    @Override
    public void disposeOnFailure() {}

    @Override
    public CheckpointStateOutputStream createCheckpointStateOutputStream(CheckpointedStateScope scope) {
        String name = "snapshot " + checkpointId + " blob " + blobs.incrementAndGet();
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(4096);
        return new CheckpointStateOutputStream() {
            @Override
            public void write(int b) {
                bytes.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                bytes.write(b, off, len);
            }

            @Override
            public long getPos() {
                return bytes.size();
            }

            @Override
            public StreamStateHandle closeAndGetHandle() {
                return new ByteStreamStateHandle(name, bytes.toByteArray());
            }

            @Override
            public void close() {}
        };
    }
}
