package dev.runnel.examples.bench;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * How many bytes a RocksDB checkpoint writes, full (canonical format) against incremental (only the SST
 * files no completed checkpoint uploaded), when a small share of the keys changes between checkpoints.
 *
 * <pre>
 *   CheckpointSizeBench [--keys K] [--changed-percent P] [--checkpoints C] [--dir D]
 * </pre>
 *
 * One RocksDB keyed backend (all 128 key groups, {@code state.backend.incremental: true}) gets K keys
 * (default 1,000,000) with a {@code ValueState<Long>} each. Then, C times (default 10): checkpoint, and
 * change P% (default 1) of the keys, chosen at random, before the next one. Each checkpoint is taken
 * both ways from the same state: the canonical full snapshot ({@code snapshotSync} + materialize) and the
 * incremental one ({@code snapshotForCheckpoint}, completed afterwards so the next one builds on it).
 * Both write real files under D (default a temporary directory, deleted at the end). Prints per
 * checkpoint and mode:
 *
 * <pre>
 *   RESULT workload=checkpoint-size store=rocksdb mode=full|incremental keys=K changed_percent=P checkpoint=N bytes=B seconds=S
 * </pre>
 *
 * where B is what that checkpoint wrote (for incremental: new SST files, the other database files and
 * the meta data; reused SST files cost nothing) and S is its synchronous plus asynchronous time.
 */
public final class CheckpointSizeBench {

    private CheckpointSizeBench() {}

    public static void main(String[] args) throws Exception {
        int keys = 1_000_000;
        int changedPercent = 1;
        int checkpoints = 10;
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = (int) Bench.number(value(args, ++i), "--keys", 1);
                case "--changed-percent" -> changedPercent = (int) Bench.number(value(args, ++i), "--changed-percent", 0);
                case "--checkpoints" -> checkpoints = (int) Bench.number(value(args, ++i), "--checkpoints", 1);
                case "--dir" -> dir = Path.of(value(args, ++i));
                default -> {
                    System.err.println("unknown argument '" + args[i] + "'; usage: CheckpointSizeBench [--keys K] "
                            + "[--changed-percent P] [--checkpoints C] [--dir D]");
                    System.exit(2);
                }
            }
        }
        boolean temporary = dir == null;
        Path root = temporary ? Files.createTempDirectory("runnel-checkpoint-size") : Files.createDirectories(dir);
        try {
            run(root, keys, changedPercent, checkpoints);
        } finally {
            if (temporary) {
                deleteTree(root);
            }
        }
    }

    private static void run(Path root, int keys, int changedPercent, int checkpoints) throws Exception {
        Configuration conf = new Configuration().setString("state.backend.incremental", "true");
        KeyedStateBackendParameters<Long> parameters = new KeyedStateBackendParameters<>("checkpoint-size-bench",
                "checkpoint size bench", 0, LongSerializer.INSTANCE, 128, KeyGroupRange.of(0, 127), List.of(),
                new SerializerConfig(), conf, List.of(root.resolve("local").toFile()), null);
        CountingFileStreams full = new CountingFileStreams(root.resolve("full"));
        CountingFileStreams incremental = new CountingFileStreams(root.resolve("incremental"));
        try (KeyedStateBackend<Long> backend = new EmbeddedRocksDBStateBackend().createKeyedStateBackend(parameters)) {
            ValueState<Long> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("value", LongSerializer.INSTANCE));
            for (long key = 0; key < keys; key++) {
                backend.setCurrentKey(key);
                state.update(key);
            }
            SplittableRandom random = new SplittableRandom(42);
            int changes = (int) ((long) keys * changedPercent / 100);
            for (int checkpoint = 1; checkpoint <= checkpoints; checkpoint++) {
                if (checkpoint > 1) {
                    for (int i = 0; i < changes; i++) {
                        backend.setCurrentKey(random.nextLong(keys));
                        state.update(random.nextLong());
                    }
                }
                long start = System.nanoTime();
                long before = full.bytes();
                backend.snapshotSync(backend.getKeyGroupRange()).materialize(full);
                report("full", keys, changedPercent, checkpoint, full.bytes() - before, System.nanoTime() - start);

                start = System.nanoTime();
                before = incremental.bytes();
                backend.snapshotForCheckpoint(checkpoint, CheckpointOptions.checkpoint(true)).materialize(incremental);
                report("incremental", keys, changedPercent, checkpoint, incremental.bytes() - before,
                        System.nanoTime() - start);
                backend.notifyCheckpointComplete(checkpoint);
            }
        }
    }

    private static void report(String mode, int keys, int changedPercent, int checkpoint, long bytes, long nanos) {
        System.out.printf("RESULT workload=checkpoint-size store=rocksdb mode=%s keys=%d changed_percent=%d "
                + "checkpoint=%d bytes=%d seconds=%.3f%n", mode, keys, changedPercent, checkpoint, bytes, nanos / 1e9);
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            System.err.println(args[i - 1] + " needs a value");
            System.exit(2);
        }
        return args[i];
    }

    /** Streams into files of a folder (shared and exclusive alike), counting the bytes completed. */
    private static final class CountingFileStreams implements CheckpointStreamFactory {
        private final Path folder;
        private final AtomicLong files = new AtomicLong();
        private final AtomicLong bytes = new AtomicLong();

        CountingFileStreams(Path folder) throws IOException {
            this.folder = Files.createDirectories(folder);
        }

        long bytes() {
            return bytes.get();
        }

        @Override
        public CheckpointStateOutputStream createCheckpointStateOutputStream(CheckpointedStateScope scope)
                throws IOException {
            Path file = folder.resolve(scope.name().toLowerCase(java.util.Locale.ROOT) + "-" + files.incrementAndGet());
            OutputStream out = new java.io.BufferedOutputStream(Files.newOutputStream(file), 1 << 16);
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
                    bytes.addAndGet(pos);
                    return new FileStateHandle(file, pos);
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

    private static void deleteTree(Path root) throws IOException {
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                Files.deleteIfExists(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path d, IOException exc) throws IOException {
                Files.deleteIfExists(d);
                return FileVisitResult.CONTINUE;
            }
        });
    }
}
