package dev.runnel.streaming.util;

import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Checkpoint streams kept in memory: each blob becomes a {@link ByteStreamStateHandle}. For the operator test
 * harnesses, whose snapshots live only as long as the test. Thread-safe (each stream is single-threaded).
 */
public final class InMemoryCheckpointStreamFactory implements CheckpointStreamFactory {

    private final String name;
    private final AtomicInteger blobs = new AtomicInteger();

    /** @param name names the blobs in messages, e.g. "harness snapshot of checkpoint 3" */
    public InMemoryCheckpointStreamFactory(String name) {
        this.name = name;
    }

    @Override
    public CheckpointStateOutputStream createCheckpointStateOutputStream(CheckpointedStateScope scope) {
        return new MemoryStream(name + " #" + blobs.incrementAndGet());
    }

    private static final class MemoryStream extends CheckpointStateOutputStream {
        private final String name;
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private boolean closed;

        MemoryStream(String name) {
            this.name = name;
        }

        @Override
        public void write(int b) throws IOException {
            checkOpen();
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            checkOpen();
            bytes.write(b, off, len);
        }

        @Override
        public long getPos() {
            return bytes.size();
        }

        @Override
        public StreamStateHandle closeAndGetHandle() throws IOException {
            checkOpen();
            closed = true;
            return new ByteStreamStateHandle(name, bytes.toByteArray());
        }

        @Override
        public void close() {
            closed = true;
        }

        private void checkOpen() throws IOException {
            if (closed) {
                throw new IOException("The checkpoint stream " + name + " is closed");
            }
        }
    }
}
