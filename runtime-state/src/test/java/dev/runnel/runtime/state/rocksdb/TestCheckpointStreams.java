package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@link CheckpointStreamFactory} for tests: every stream is a file, in {@code <root>/shared} or
 * {@code <root>/exclusive} by scope, and the factory counts streams and bytes per scope.
 */
final class TestCheckpointStreams implements CheckpointStreamFactory {

    private final Path root;
    private final AtomicLong files = new AtomicLong();
    private final Map<CheckpointedStateScope, List<StreamStateHandle>> written = new EnumMap<>(CheckpointedStateScope.class);
    private final Map<CheckpointedStateScope, Long> bytes = new EnumMap<>(CheckpointedStateScope.class);

    TestCheckpointStreams(Path root) throws IOException {
        this.root = root;
        for (CheckpointedStateScope scope : CheckpointedStateScope.values()) {
            Files.createDirectories(folder(scope));
            written.put(scope, new ArrayList<>());
            bytes.put(scope, 0L);
        }
    }

    private Path folder(CheckpointedStateScope scope) {
        return root.resolve(scope.name().toLowerCase(java.util.Locale.ROOT));
    }

    /** The handles completed in {@code scope} so far. */
    synchronized List<StreamStateHandle> written(CheckpointedStateScope scope) {
        return List.copyOf(written.get(scope));
    }

    synchronized long bytes(CheckpointedStateScope scope) {
        return bytes.get(scope);
    }

    synchronized long totalBytes() {
        return bytes.values().stream().mapToLong(Long::longValue).sum();
    }

    /** Forgets the counts (the files stay). */
    synchronized void resetCounts() {
        written.values().forEach(List::clear);
        bytes.replaceAll((s, b) -> 0L);
    }

    @Override
    public CheckpointStateOutputStream createCheckpointStateOutputStream(CheckpointedStateScope scope)
            throws IOException {
        Path file = folder(scope).resolve("blob-" + files.incrementAndGet());
        OutputStream out = Files.newOutputStream(file);
        return new CheckpointStateOutputStream() {
            private long pos;
            private boolean done;

            @Override
            public void write(int b) throws IOException {
                out.write(b);
                pos++;
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                out.write(b, off, len);
                pos += len;
            }

            @Override
            public long getPos() {
                return pos;
            }

            @Override
            public StreamStateHandle closeAndGetHandle() throws IOException {
                out.close();
                done = true;
                StreamStateHandle handle = new FileStateHandle(file, pos);
                synchronized (TestCheckpointStreams.this) {
                    written.get(scope).add(handle);
                    bytes.merge(scope, pos, Long::sum);
                }
                return handle;
            }

            @Override
            public void close() throws IOException {
                if (!done) {
                    done = true;
                    out.close();
                    Files.deleteIfExists(file);
                }
            }
        };
    }
}
