package dev.runnel.examples.bench;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.checkpoint.CheckpointStorageLocation;
import dev.runnel.runtime.checkpoint.DefaultCompletedCheckpointStore;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import dev.runnel.runtime.state.SharedStateRegistry;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.hashmap.HashMapStateBackend;
import dev.runnel.runtime.state.storage.FileSystemCheckpointStorage;
import dev.runnel.runtime.state.storage.FsCheckpointStorageAccess;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.BitSet;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * What a checkpoint of one keyed backend costs on each store (issue 11): the synchronous pause on the task
 * thread, the asynchronous write, and the bytes it writes, when a small share of the keys changes between
 * checkpoints.
 *
 * <pre>
 *   CheckpointSizeBench [--savepoints] [--keys K] [--changed-percent P] [--checkpoints C] [--dir D] [--stores S,...]
 *   S: heap | rocksdb-full | rocksdb-incremental (default all three, in this order)
 *      with --savepoints: heap-canonical | rocksdb-canonical | rocksdb-native (default all three)
 * </pre>
 *
 * For each store, a fresh keyed backend (all 128 key groups) gets K keys (default 1,000,000) {@code "w" + n},
 * W1's words, with a {@code ValueState<Long>} count each. Then, C times (default 10): a checkpoint as the
 * engine takes it, and P% (default 1) of the keys, distinct and chosen at random, get {@code value() + 1}
 * before the next one (the same keys for every store: one seed). A checkpoint is
 * <ol>
 *   <li>sync: {@code snapshotForCheckpoint(id, CheckpointOptions.checkpoint(true))} on this thread;
 *   <li>async: {@code materialize} into the {@code chk-id} location of a {@link FileSystemCheckpointStorage}
 *       under D (default a temporary directory, deleted at the end), also on this thread, with no updates
 *       running meanwhile (in a job it runs on another thread while the task goes on);
 *   <li>its shared state registered with a {@link DefaultCompletedCheckpointStore}'s registry and
 *       {@code notifyCheckpointComplete(id)}, so the next incremental checkpoint reuses what this one uploaded,
 *       as in the engine.
 * </ol>
 * The backends are configured as in a job with checkpointing on ({@code execution.checkpointing.interval}),
 * so RocksDB's memtables do not update in place and its full checkpoint takes a native snapshot.
 * Prints one line per checkpoint and, per store, the medians of checkpoints 2..C (1 alone when C is 1):
 *
 * <pre>
 *   RESULT workload=checkpoint-cost store=heap|rocksdb mode=full|incremental keys=K changed_percent=P checkpoint=N sync_ms=S async_ms=A bytes=B
 *   SUMMARY workload=checkpoint-cost store=... mode=... keys=K changed_percent=P checkpoints=2..C median_sync_ms=S median_async_ms=A median_bytes=B
 * </pre>
 *
 * where B is what that checkpoint wrote: for a full one the snapshot blob, for an incremental one the SST
 * files it uploaded (not the ones it reused from earlier checkpoints), its private files and its meta data.
 *
 * <p>With {@code --savepoints} (issue 12) the same loop takes savepoints instead:
 * {@code CheckpointOptions.savepoint(CANONICAL | NATIVE)}, materialized into a savepoint folder of the same
 * storage ({@code initializeLocationForSavepoint}), nothing registered with the shared-state registry (the
 * coordinator keeps savepoints out of it), then {@code notifyCheckpointComplete(id)} as the coordinator
 * sends it. A savepoint is self-contained, so B is all it wrote: the canonical blob, or for a native one
 * every SST file, the private files and the meta data. The lines then say {@code workload=savepoint-cost},
 * {@code mode=canonical|native}, {@code savepoint=N} and {@code savepoints=2..C}. The heap store has no
 * format of its own (its NATIVE savepoint is the canonical one), so it runs canonical only.
 */
public final class CheckpointSizeBench {

    /** The stores and modes, in the order they run: three checkpoint kinds, then three savepoint kinds. */
    private enum Store {
        HEAP("heap", "full", null),
        ROCKSDB_FULL("rocksdb", "full", null),
        ROCKSDB_INCREMENTAL("rocksdb", "incremental", null),
        HEAP_CANONICAL("heap", "canonical", SavepointFormatType.CANONICAL),
        ROCKSDB_CANONICAL("rocksdb", "canonical", SavepointFormatType.CANONICAL),
        ROCKSDB_NATIVE("rocksdb", "native", SavepointFormatType.NATIVE);

        final String store;
        final String mode;
        /** Null for a checkpoint. */
        final SavepointFormatType savepointFormat;

        Store(String store, String mode, SavepointFormatType savepointFormat) {
            this.store = store;
            this.mode = mode;
            this.savepointFormat = savepointFormat;
        }

        boolean savepoint() {
            return savepointFormat != null;
        }

        String flag() {
            return this == HEAP ? "heap" : store + "-" + mode;
        }

        String workload() {
            return savepoint() ? "savepoint-cost" : "checkpoint-cost";
        }

        /** What one snapshot is called in the output lines. */
        String noun() {
            return savepoint() ? "savepoint" : "checkpoint";
        }

        static List<Store> of(boolean savepoints) {
            return Arrays.stream(values()).filter(s -> s.savepoint() == savepoints).toList();
        }
    }

    /** Where under a store's directory its savepoints go (checkpoints go under "checkpoints"). */
    private static final String SNAPSHOT_FOLDER_SAVEPOINTS = "savepoints";

    private CheckpointSizeBench() {}

    public static void main(String[] args) throws Exception {
        int keys = 1_000_000;
        int changedPercent = 1;
        int checkpoints = 10;
        Path dir = null;
        boolean savepoints = false;
        String storeList = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = (int) Bench.number(value(args, ++i), "--keys", 1);
                case "--changed-percent" -> changedPercent = (int) Bench.number(value(args, ++i), "--changed-percent", 0);
                case "--checkpoints" -> checkpoints = (int) Bench.number(value(args, ++i), "--checkpoints", 1);
                case "--dir" -> dir = Path.of(value(args, ++i));
                case "--stores" -> storeList = value(args, ++i);
                case "--savepoints" -> savepoints = true;
                default -> usage("unknown argument '" + args[i] + "'");
            }
        }
        if (changedPercent > 100) {
            usage("--changed-percent must be at most 100");
        }
        List<Store> stores = storeList == null ? Store.of(savepoints) : parseStores(storeList, savepoints);
        boolean temporary = dir == null;
        Path root = temporary ? Files.createTempDirectory("runnel-checkpoint-cost") : Files.createDirectories(dir);
        try {
            for (Store store : stores) {
                run(root.resolve(store.flag()), store, keys, changedPercent, checkpoints);
            }
        } finally {
            if (temporary) {
                deleteTree(root);
            }
        }
    }

    private static List<Store> parseStores(String list, boolean savepoints) {
        List<Store> stores = new ArrayList<>();
        List<Store> allowed = Store.of(savepoints);
        for (String name : list.split(",")) {
            Store store = allowed.stream().filter(s -> s.flag().equals(name.trim().toLowerCase(Locale.ROOT)))
                    .findFirst().orElse(null);
            if (store == null) {
                usage("unknown store '" + name + "' (" + String.join(", ", allowed.stream().map(Store::flag).toList())
                        + (savepoints ? " with --savepoints)" : "; add --savepoints for the savepoint kinds)"));
            }
            stores.add(store);
        }
        return stores;
    }

    private static void run(Path dir, Store store, int keys, int changedPercent, int checkpoints) throws Exception {
        // A checkpointing job's configuration: RocksDB's "auto" in-place updates then stay off (see
        // docs/BENCHMARKS.md, "Two-phase snapshots"), which is what a job that checkpoints runs with.
        Configuration conf = new Configuration()
                .setString("execution.checkpointing.interval", "10s")
                .setString("state.backend.incremental", String.valueOf(store == Store.ROCKSDB_INCREMENTAL));
        KeyedStateBackendParameters<String> parameters = new KeyedStateBackendParameters<>("checkpoint-cost-bench",
                "checkpoint cost bench", 0, StringSerializer.INSTANCE, 128, KeyGroupRange.of(0, 127), List.of(),
                new SerializerConfig(), conf, List.of(Files.createDirectories(dir.resolve("local")).toFile()), null);
        StateBackend backendFactory = store.store.equals("heap") ? new HashMapStateBackend() : new EmbeddedRocksDBStateBackend();
        FsCheckpointStorageAccess storage = new FileSystemCheckpointStorage(dir.resolve("checkpoints").toString())
                .createCheckpointStorage("checkpoint-cost-bench");
        // Only its registry is used: retaining and subsuming checkpoints is the coordinator's cost, not the task's.
        DefaultCompletedCheckpointStore completed = new DefaultCompletedCheckpointStore(1);
        SharedStateRegistry registry = completed.getSharedStateRegistry();
        long[] sync = new long[checkpoints];
        long[] async = new long[checkpoints];
        long[] bytes = new long[checkpoints];
        try (KeyedStateBackend<String> backend = backendFactory.createKeyedStateBackend(parameters)) {
            ValueState<Long> count = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
            String[] words = new String[keys];
            long fillStart = System.nanoTime();
            for (int n = 0; n < keys; n++) {
                words[n] = "w" + n;
                backend.setCurrentKey(words[n]);
                count.update(1L);
            }
            System.out.printf("INFO store=%s mode=%s filled %d keys in %.3f s%n", store.store, store.mode, keys,
                    (System.nanoTime() - fillStart) / 1e9);
            SplittableRandom random = new SplittableRandom(42);
            int changes = (int) ((long) keys * changedPercent / 100);
            for (int id = 1; id <= checkpoints; id++) {
                if (id > 1) {
                    change(backend, count, words, changes, random);
                }
                CheckpointStorageLocation location = store.savepoint()
                        ? storage.initializeLocationForSavepoint(id, dir.resolve(SNAPSHOT_FOLDER_SAVEPOINTS).toString())
                        : storage.initializeLocationForCheckpoint(id);
                CheckpointOptions options = store.savepoint() ? CheckpointOptions.savepoint(store.savepointFormat)
                        : CheckpointOptions.checkpoint(true);
                long start = System.nanoTime();
                KeyedStateSnapshot snapshot = backend.snapshotForCheckpoint(id, options);
                long synced = System.nanoTime();
                KeyedStateHandle handle = snapshot.materialize(location);
                long materialized = System.nanoTime();
                sync[id - 1] = synced - start;
                async[id - 1] = materialized - synced;
                if (store.savepoint()) {
                    // Self-contained and never registered (DefaultCompletedCheckpointStore skips savepoints).
                    bytes[id - 1] = handle.getStateSize();
                } else {
                    bytes[id - 1] = writtenBytes(handle, registry);
                    handle.registerSharedStates(registry, id);
                }
                backend.notifyCheckpointComplete(id);
                System.out.printf(Locale.ROOT, "RESULT workload=%s store=%s mode=%s keys=%d changed_percent=%d"
                        + " %s=%d sync_ms=%.3f async_ms=%.3f bytes=%d%n", store.workload(), store.store, store.mode,
                        keys, changedPercent, store.noun(), id, sync[id - 1] / 1e6, async[id - 1] / 1e6, bytes[id - 1]);
            }
        }
        // The first checkpoint writes everything (and warms up the code), so the steady state starts at the second.
        int from = checkpoints > 1 ? 1 : 0;
        System.out.printf(Locale.ROOT, "SUMMARY workload=%s store=%s mode=%s keys=%d changed_percent=%d"
                + " %ss=%d..%d median_sync_ms=%.3f median_async_ms=%.3f median_bytes=%d%n", store.workload(),
                store.store, store.mode, keys, changedPercent, store.noun(), from + 1, checkpoints,
                median(sync, from) / 1e6, median(async, from) / 1e6, median(bytes, from));
        completed.shutdown(false);
        // Cross-check of the bytes above against the files: equal unless some blob stayed inline (at most
        // the storage's memory threshold each), which lives in the metadata this bench does not write.
        String folder = store.savepoint() ? SNAPSHOT_FOLDER_SAVEPOINTS : "checkpoints";
        System.out.printf("INFO store=%s mode=%s bytes reported %d, files under %s/: %d bytes%n", store.store,
                store.mode, Arrays.stream(bytes).sum(), folder, sizeOf(dir.resolve(folder)));
    }

    private static long sizeOf(Path folder) throws IOException {
        try (var files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    /** Adds one to the counts of {@code changes} distinct keys chosen at random, as W1 counts a word. */
    private static void change(KeyedStateBackend<String> backend, ValueState<Long> count, String[] words, int changes,
            SplittableRandom random) throws IOException {
        BitSet chosen = new BitSet(words.length);
        for (int i = 0; i < changes; i++) {
            int n;
            do {
                n = random.nextInt(words.length);
            } while (chosen.get(n));
            chosen.set(n);
            backend.setCurrentKey(words[n]);
            count.update(count.value() + 1);
        }
    }

    /**
     * The bytes checkpoint {@code handle} wrote: all of a canonical snapshot; of an incremental one, the shared
     * files no earlier checkpoint registered (asked before this one registers), plus its private files and meta.
     */
    private static long writtenBytes(KeyedStateHandle handle, SharedStateRegistry registry) {
        if (!(handle instanceof IncrementalRemoteKeyedStateHandle incremental)) {
            return handle.getStateSize();
        }
        long bytes = incremental.getMetaStateHandle().getStateSize();
        for (IncrementalRemoteKeyedStateHandle.HandleAndLocalPath file : incremental.getPrivateState()) {
            bytes += file.handle().getStateSize();
        }
        for (IncrementalRemoteKeyedStateHandle.HandleAndLocalPath file : incremental.getSharedState()) {
            if (registry.getRegisteredHandle(incremental.registryKey(file.localPath())) == null) {
                bytes += file.handle().getStateSize();
            }
        }
        return bytes;
    }

    private static long median(long[] values, int from) {
        long[] sorted = Arrays.copyOfRange(values, from, values.length);
        Arrays.sort(sorted);
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void usage(String problem) {
        System.err.println(problem + "; usage: CheckpointSizeBench [--savepoints] [--keys K] [--changed-percent P]"
                + " [--checkpoints C] [--dir D] [--stores heap,rocksdb-full,rocksdb-incremental]"
                + " (with --savepoints: [--stores heap-canonical,rocksdb-canonical,rocksdb-native])");
        System.exit(2);
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
