package dev.runnel.examples.bench;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.checkpoint.OperatorState;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.checkpoint.StateAssignmentOperation;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.storage.FileSystemCheckpointStorage;
import dev.runnel.runtime.state.storage.FsCheckpointStorageAccess;
import dev.runnel.runtime.state.storage.FsCheckpointStorageLocation;
import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.StringJoiner;
import java.util.stream.Stream;

/**
 * How long RocksDB keyed state takes to restore at another parallelism (issue 12): a savepoint of an operator at
 * parallelism {@code from}, restored at parallelism {@code to}, in the canonical and in the native format.
 *
 * <pre>
 *   RestoreRescaleBench [--keys K] [--value-bytes B] [--from P] [--to Q] [--formats canonical,native] [--dir D]
 * </pre>
 *
 * <ol>
 *   <li>For each old subtask {@code s} of P (default 4) at max parallelism 128, one at a time: a RocksDB keyed
 *       backend for {@code computeKeyGroupRangeForOperatorIndex(128, P, s)} gets the keys {@code "k" + n}
 *       (n below K, default 9,000,000) whose key group it owns, each with a {@code ValueState<byte[]>} of B
 *       (default 100) pseudo-random bytes determined by n (random so that RocksDB's compression does not make the
 *       native format smaller than the canonical one for a reason real state would not share). Then one
 *       savepoint per format ({@code CheckpointOptions.savepoint(CANONICAL)} → {@code KeyGroupsStateHandle},
 *       {@code savepoint(NATIVE)} → {@code IncrementalRemoteKeyedStateHandle}, RocksDB's SST files), each
 *       materialized into its savepoint folder of a {@link FileSystemCheckpointStorage} under D (default a
 *       temporary directory). The backend is closed before the next one is built, so only one is open.
 *   <li>Per format: the P handles as an {@link OperatorState}, {@link StateAssignmentOperation#redistribute}d
 *       to Q (default 2), as {@code EmbeddedJob} does on a restore; then, one after the other, each new subtask's
 *       backend is created with its handles as {@code KeyedStateBackendParameters.restoreState}, as
 *       {@code AbstractStreamOperator.createKeyedStateBackend} passes them. <b>Timed</b>: that creation, which
 *       is the whole restore (canonical: re-inserting every owned key; native: copying the base handle's files,
 *       opening RocksDB on them, deleteRange of the key groups it does not own, then copying the owned key
 *       groups of the other handles).
 *   <li>Verified, not timed: every key n of the new subtask's key groups is looked up and must have its bytes;
 *       then the backend's keys ({@code getKeys}) are counted and each must belong to this subtask's key groups.
 *       Both together mean: every key exactly once, in its owner, with its value (all K keys are checked).
 *       The backend is closed (its working directory deleted) before the next subtask restores.
 * </ol>
 *
 * Prints, per format:
 * <pre>
 *   RESULT workload=restore-rescale store=rocksdb format=canonical|native from=P to=Q bytes=B seconds=S keys=K subtask_seconds=S0,S1,...
 * </pre>
 * B is the savepoint's size (the sum of the P handles' state sizes), S the sum of the Q restores.
 * The savepoints are deleted at the end (also with --dir, since they are large).
 */
public final class RestoreRescaleBench {

    private static final int MAX_PARALLELISM = 128;
    private static final String STATE = "value";
    private static final ValueStateDescriptor<byte[]> DESCRIPTOR =
            new ValueStateDescriptor<>(STATE, BytePrimitiveArraySerializer.INSTANCE);

    private RestoreRescaleBench() {}

    public static void main(String[] args) throws Exception {
        int keys = 9_000_000;
        int valueBytes = 100;
        int from = 4;
        int to = 2;
        List<SavepointFormatType> formats = List.of(SavepointFormatType.CANONICAL, SavepointFormatType.NATIVE);
        Path dir = null;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = (int) Bench.number(value(args, ++i), "--keys", 1);
                case "--value-bytes" -> valueBytes = (int) Bench.number(value(args, ++i), "--value-bytes", 0);
                case "--from" -> from = (int) Bench.number(value(args, ++i), "--from", 1);
                case "--to" -> to = (int) Bench.number(value(args, ++i), "--to", 1);
                case "--formats" -> formats = parseFormats(value(args, ++i));
                case "--dir" -> dir = Path.of(value(args, ++i));
                default -> usage("unknown argument '" + args[i] + "'");
            }
        }
        if (from > MAX_PARALLELISM || to > MAX_PARALLELISM) {
            usage("--from and --to must be at most the max parallelism " + MAX_PARALLELISM);
        }
        boolean temporary = dir == null;
        Path root = temporary ? Files.createTempDirectory("runnel-restore-rescale") : Files.createDirectories(dir);
        Path work = Files.createDirectories(root.resolve("restore-rescale-" + System.nanoTime()));
        try {
            run(work, keys, valueBytes, from, to, formats);
        } finally {
            deleteTree(temporary ? root : work);
        }
    }

    private static void run(Path work, int keys, int valueBytes, int from, int to, List<SavepointFormatType> formats)
            throws Exception {
        StateBackend rocksdb = new EmbeddedRocksDBStateBackend();
        FsCheckpointStorageAccess storage = new FileSystemCheckpointStorage(work.resolve("checkpoints").toString())
                .createCheckpointStorage("restore-rescale-bench");
        Map<SavepointFormatType, FsCheckpointStorageLocation> locations = new HashMap<>();
        Map<SavepointFormatType, Map<Integer, OperatorSubtaskState>> snapshots = new HashMap<>();
        for (SavepointFormatType format : formats) {
            // One savepoint per format, all old subtasks writing into its one folder, as in a job.
            locations.put(format, storage.initializeLocationForSavepoint(id(format),
                    work.resolve("savepoints").toString()));
            snapshots.put(format, new HashMap<>());
        }
        long filled = 0;
        for (int s = 0; s < from; s++) {
            KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(MAX_PARALLELISM, from, s);
            long start = System.nanoTime();
            try (KeyedStateBackend<String> backend = rocksdb.createKeyedStateBackend(
                    parameters(s, range, List.of(), work.resolve("old-local")))) {
                ValueState<byte[]> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, DESCRIPTOR);
                int count = 0;
                for (int n = 0; n < keys; n++) {
                    String key = "k" + n;
                    int keyGroup = KeyGroupRangeAssignment.assignToKeyGroup(key, MAX_PARALLELISM);
                    if (range.contains(keyGroup)) {
                        backend.setCurrentKeyAndKeyGroup(key, keyGroup);
                        state.update(value(n, valueBytes));
                        count++;
                    }
                }
                filled += count;
                long fillEnd = System.nanoTime();
                StringJoiner taken = new StringJoiner(" ");
                for (SavepointFormatType format : formats) {
                    long t0 = System.nanoTime();
                    KeyedStateHandle handle = backend.snapshotForCheckpoint(id(format),
                            CheckpointOptions.savepoint(format)).materialize(locations.get(format));
                    long t1 = System.nanoTime();
                    backend.notifyCheckpointComplete(id(format));
                    snapshots.get(format).put(s, new OperatorSubtaskState(List.of(handle), List.of()));
                    taken.add(String.format(Locale.ROOT, "%s %.3f s %d bytes (%s)", name(format), (t1 - t0) / 1e9,
                            handle.getStateSize(), handle.getClass().getSimpleName()));
                }
                System.out.printf(Locale.ROOT, "INFO old subtask %d/%d %s: %d keys filled in %.3f s; savepoints: %s%n",
                        s, from, range, count, (fillEnd - start) / 1e9, taken);
            }
        }
        if (filled != keys) {
            throw new AssertionError("the old subtasks hold " + filled + " keys, not " + keys);
        }
        for (SavepointFormatType format : formats) {
            OperatorState old = new OperatorState("restore-rescale-bench", from, MAX_PARALLELISM, snapshots.get(format),
                    null);
            long bytes = old.getStateSize();
            OperatorState assigned = StateAssignmentOperation.redistribute(old, to, MAX_PARALLELISM);
            double total = 0;
            StringJoiner perSubtask = new StringJoiner(",");
            long verifiedKeys = 0;
            for (int i = 0; i < to; i++) {
                KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(MAX_PARALLELISM, to, i);
                OperatorSubtaskState mine = assigned.getState(i);
                List<KeyedStateHandle> handles = mine == null ? List.of() : mine.managedKeyedState();
                long start = System.nanoTime();
                KeyedStateBackend<String> backend = rocksdb.createKeyedStateBackend(
                        parameters(i, range, handles, work.resolve("new-local-" + name(format))));
                long restored = System.nanoTime();
                try {
                    double seconds = (restored - start) / 1e9;
                    total += seconds;
                    perSubtask.add(String.format(Locale.ROOT, "%.3f", seconds));
                    long owned = verify(backend, range, keys, valueBytes);
                    verifiedKeys += owned;
                    System.out.printf(Locale.ROOT, "INFO %s new subtask %d/%d %s: restored from %d handles in %.3f s;"
                            + " %d keys verified in %.3f s%n", name(format), i, to, range, handles.size(), seconds,
                            owned, (System.nanoTime() - restored) / 1e9);
                } finally {
                    backend.close();
                }
            }
            if (verifiedKeys != keys) {
                throw new AssertionError(name(format) + ": the new subtasks hold " + verifiedKeys + " keys, not " + keys);
            }
            System.out.printf(Locale.ROOT, "INFO %s savepoint files: %d bytes%n", name(format),
                    sizeOf(locations.get(format).getCheckpointDirectory()));
            System.out.printf(Locale.ROOT, "RESULT workload=restore-rescale store=rocksdb format=%s from=%d to=%d bytes=%d"
                    + " seconds=%.3f keys=%d subtask_seconds=%s%n", name(format), from, to, bytes, total, keys,
                    perSubtask);
        }
    }

    /**
     * Looks up every key n whose key group is in {@code range} and compares its bytes, then checks that the backend
     * holds exactly those keys. Returns how many. Fails on the first difference.
     */
    private static long verify(KeyedStateBackend<String> backend, KeyGroupRange range, int keys, int valueBytes)
            throws Exception {
        ValueState<byte[]> state = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, DESCRIPTOR);
        long owned = 0;
        for (int n = 0; n < keys; n++) {
            String key = "k" + n;
            int keyGroup = KeyGroupRangeAssignment.assignToKeyGroup(key, MAX_PARALLELISM);
            if (!range.contains(keyGroup)) {
                continue;
            }
            backend.setCurrentKeyAndKeyGroup(key, keyGroup);
            byte[] actual = state.value();
            if (actual == null) {
                throw new AssertionError("key " + key + " (key group " + keyGroup + ") is missing in " + range);
            }
            if (!Arrays.equals(actual, value(n, valueBytes))) {
                throw new AssertionError("key " + key + " restored with other bytes in " + range);
            }
            owned++;
        }
        long held = 0;
        try (Stream<String> stored = backend.getKeys(STATE, VoidNamespace.INSTANCE)) {
            for (String key : (Iterable<String>) stored::iterator) {
                int keyGroup = KeyGroupRangeAssignment.assignToKeyGroup(key, MAX_PARALLELISM);
                if (!range.contains(keyGroup)) {
                    throw new AssertionError("key " + key + " of key group " + keyGroup + " restored into " + range);
                }
                held++;
            }
        }
        if (held != owned) {
            // Keys are distinct strings and each owned one was found, so a difference is a key restored twice
            // under different bytes or one that is not "k" + n of n < K.
            throw new AssertionError(range + " holds " + held + " keys, but " + owned + " belong there");
        }
        return owned;
    }

    /** Key n's value: {@code bytes} pseudo-random bytes, the same on every call. */
    private static byte[] value(int n, int bytes) {
        byte[] value = new byte[bytes];
        new SplittableRandom(n).nextBytes(value);
        return value;
    }

    private static KeyedStateBackendParameters<String> parameters(int subtask, KeyGroupRange range,
            List<KeyedStateHandle> restore, Path local) throws IOException {
        // A checkpointing job's configuration, as CheckpointSizeBench uses: what a job that takes savepoints runs.
        Configuration conf = new Configuration().setString("execution.checkpointing.interval", "10s");
        return new KeyedStateBackendParameters<>("restore-rescale-bench", "restore rescale bench", subtask,
                StringSerializer.INSTANCE, MAX_PARALLELISM, range, restore, new SerializerConfig(), conf,
                List.of(Files.createDirectories(local).toFile()), null);
    }

    private static long id(SavepointFormatType format) {
        return format == SavepointFormatType.CANONICAL ? 1 : 2;
    }

    private static String name(SavepointFormatType format) {
        return format.name().toLowerCase(Locale.ROOT);
    }

    private static List<SavepointFormatType> parseFormats(String list) {
        List<SavepointFormatType> formats = new ArrayList<>();
        for (String name : list.split(",")) {
            try {
                formats.add(SavepointFormatType.valueOf(name.trim().toUpperCase(Locale.ROOT)));
            } catch (IllegalArgumentException e) {
                usage("unknown format '" + name + "' (canonical, native)");
            }
        }
        return formats;
    }

    private static long sizeOf(Path folder) throws IOException {
        try (var files = Files.walk(folder)) {
            return files.filter(Files::isRegularFile).mapToLong(f -> f.toFile().length()).sum();
        }
    }

    private static String value(String[] args, int i) {
        if (i >= args.length) {
            usage(args[i - 1] + " needs a value");
        }
        return args[i];
    }

    private static void usage(String problem) {
        System.err.println(problem + "; usage: RestoreRescaleBench [--keys K] [--value-bytes B] [--from P] [--to Q]"
                + " [--formats canonical,native] [--dir D]");
        System.exit(2);
    }

    private static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
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
