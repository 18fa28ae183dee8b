package dev.runnel.runtime.state.bench;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.contrib.streaming.state.RocksDBOptions;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.hashmap.HashMapStateBackend;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import dev.runnel.runtime.timers.TimerSerializer;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * What a two-phase snapshot costs the task, per store: the synchronous pause
 * ({@link KeyedStateBackend#snapshotSync}) with {@code keys} keys of a {@code ValueState<Long>}
 * (W1's state: a word count), the asynchronous write on another thread, and the task's W1-style
 * update throughput (setCurrentKey, value(), update(value + 1) on a random key) with no snapshot,
 * with a snapshot pinned but not being written (copy-on-write alone), and while a snapshot is being
 * written on another thread (copy-on-write plus a competing thread).
 *
 * <p>Not a unit test: run it by hand, e.g.
 * {@code java -Xmx4g -cp <test classpath> dev.runnel.runtime.state.bench.SnapshotPauseBench heap 1000000 5 [timers]}
 * (store {@code heap}, {@code rocksdb} (its default: {@code auto}, which with no checkpointing
 * configured means in-place memtable updates, so snapshots take a checkpoint), {@code rocksdb-checkpoint}
 * (in-place updates forced on) or {@code rocksdb-native} (forced off: native RocksDB snapshots), keys,
 * snapshots, and optionally as many event-time timers as keys, one per key). Prints one {@code RESULT} line per store and run; the first snapshots warm
 * the code up, the figures are over the last ones.
 */
public final class SnapshotPauseBench {

    private static final int MAX_PARALLELISM = 128;
    private static final KeyGroupRange ALL = KeyGroupRange.of(0, MAX_PARALLELISM - 1);
    /** Updates per throughput measurement with no snapshot, and per measurement while pinned. */
    private static final int UPDATES = 2_000_000;

    private SnapshotPauseBench() {}

    public static void main(String[] args) throws Exception {
        String store = args.length > 0 ? args[0] : "heap";
        int keys = args.length > 1 ? Integer.parseInt(args[1]) : 1_000_000;
        int snapshots = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        boolean timers = args.length > 3 && args[3].equals("timers");
        StateBackend backend = switch (store) {
            case "heap" -> new HashMapStateBackend();
            case "rocksdb" -> new EmbeddedRocksDBStateBackend();
            case "rocksdb-checkpoint" -> new EmbeddedRocksDBStateBackend(new Configuration()
                    .setString(RocksDBOptions.INPLACE_UPDATE_SUPPORT.key(), "true"));
            case "rocksdb-native" -> new EmbeddedRocksDBStateBackend(new Configuration()
                    .setString(RocksDBOptions.INPLACE_UPDATE_SUPPORT.key(), "false"));
            default -> throw new IllegalArgumentException(
                    "store must be heap, rocksdb, rocksdb-checkpoint or rocksdb-native, was " + store);
        };
        new Run(backend, store, keys, snapshots, timers).run();
    }

    /** One store's measurements. Single task thread (the caller) plus one writing thread. */
    private static final class Run {
        private final StateBackend store;
        private final String name;
        private final int keyCount;
        private final int snapshots;
        private final boolean withTimers;
        private final String[] keys;
        private final ExecutorService writer = Executors.newSingleThreadExecutor();
        private long x = 42;

        Run(StateBackend store, String name, int keyCount, int snapshots, boolean withTimers) {
            this.store = store;
            this.name = name;
            this.keyCount = keyCount;
            this.snapshots = snapshots;
            this.withTimers = withTimers;
            this.keys = new String[keyCount];
            for (int i = 0; i < keyCount; i++) {
                keys[i] = "w" + i;
            }
        }

        void run() throws Exception {
            Path dir = Files.createTempDirectory("snapshot-bench");
            KeyedStateBackendParameters<String> parameters = new KeyedStateBackendParameters<>("bench", "count", 0,
                    StringSerializer.INSTANCE, MAX_PARALLELISM, ALL, List.of(), new SerializerConfig(),
                    new Configuration(), List.of(dir.toFile()), null);
            try (KeyedStateBackend<String> backend = store.createKeyedStateBackend(parameters)) {
                ValueState<Long> count = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                        new ValueStateDescriptor<>("count", LongSerializer.INSTANCE));
                fill(backend, count);
                double[] syncMs = new double[snapshots];
                double[] writeMs = new double[snapshots];
                double[] idle = new double[snapshots];
                double[] pinned = new double[snapshots];
                double[] writing = new double[snapshots];
                long bytes = 0;
                for (int s = 0; s < snapshots; s++) {
                    idle[s] = updatesPerSecond(backend, count, UPDATES);
                    long t0 = System.nanoTime();
                    KeyedStateSnapshot snapshot = backend.snapshotSync(ALL);
                    syncMs[s] = (System.nanoTime() - t0) / 1e6;
                    pinned[s] = updatesPerSecond(backend, count, UPDATES);
                    CountingStream out = new CountingStream();
                    long w0 = System.nanoTime();
                    Future<Long> written = writer.submit(() -> {
                        snapshot.writeTo(out);
                        return System.nanoTime();
                    });
                    writing[s] = updatesWhile(backend, count, written);
                    writeMs[s] = (written.get() - w0) / 1e6;
                    bytes = out.count;
                }
                int from = Math.min(2, snapshots - 1); // the first ones warm up
                System.out.printf("RESULT store=%s keys=%d timers=%d snapshots=%d sync_ms_median=%.2f sync_ms_max=%.2f"
                                + " write_ms_median=%.0f snapshot_bytes=%d updates_per_s_no_snapshot=%.0f"
                                + " updates_per_s_pinned=%.0f updates_per_s_while_writing=%.0f%n",
                        name, keyCount, withTimers ? keyCount : 0, snapshots - from, median(syncMs, from),
                        max(syncMs, from), median(writeMs, from), bytes, median(idle, from), median(pinned, from),
                        median(writing, from));
            } finally {
                writer.shutdownNow();
            }
        }

        private void fill(KeyedStateBackend<String> backend, ValueState<Long> count) throws Exception {
            KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<String, Integer>> queue = null;
            if (withTimers) {
                LongPriorityComparator<TimerHeapInternalTimer<String, Integer>> byTime =
                        TimerHeapInternalTimer::getTimestamp;
                queue = backend.create("timers", new TimerSerializer<>(StringSerializer.INSTANCE, IntSerializer.INSTANCE),
                        byTime, TimerHeapInternalTimer::getKey);
            }
            for (int i = 0; i < keyCount; i++) {
                backend.setCurrentKey(keys[i]);
                count.update(1L);
                if (queue != null) {
                    queue.add(new TimerHeapInternalTimer<>(i, keys[i], 0));
                }
            }
        }

        /** W1's per-record state access on {@code updates} random keys; returns updates per second. */
        private double updatesPerSecond(KeyedStateBackend<String> backend, ValueState<Long> count, int updates)
                throws Exception {
            long t0 = System.nanoTime();
            for (int i = 0; i < updates; i++) {
                update(backend, count);
            }
            return updates / ((System.nanoTime() - t0) / 1e9);
        }

        /** Updates until {@code written} completes; returns updates per second meanwhile. */
        private double updatesWhile(KeyedStateBackend<String> backend, ValueState<Long> count, Future<?> written)
                throws Exception {
            long t0 = System.nanoTime();
            long n = 0;
            while (!written.isDone()) {
                for (int i = 0; i < 1_000; i++) {
                    update(backend, count);
                }
                n += 1_000;
            }
            return n / ((System.nanoTime() - t0) / 1e9);
        }

        private void update(KeyedStateBackend<String> backend, ValueState<Long> count) throws Exception {
            x ^= x << 13;
            x ^= x >>> 7;
            x ^= x << 17;
            backend.setCurrentKey(keys[(int) Math.floorMod(x, (long) keyCount)]);
            Long current = count.value();
            count.update(current == null ? 1 : current + 1);
        }
    }

    /** Counts the bytes of a snapshot and drops them, so that only producing them is timed. */
    private static final class CountingStream extends OutputStream {
        long count;

        @Override
        public void write(int b) {
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) {
            count += len;
        }
    }

    private static double median(double[] values, int from) {
        double[] tail = Arrays.copyOfRange(values, from, values.length);
        Arrays.sort(tail);
        return tail[tail.length / 2];
    }

    private static double max(double[] values, int from) {
        double max = 0;
        for (int i = from; i < values.length; i++) {
            max = Math.max(max, values[i]);
        }
        return max;
    }
}
