package dev.runnel.runtime.state;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import dev.runnel.runtime.timers.TimerSerializer;
import java.io.BufferedOutputStream;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the shared state backend suites ({@link StateBackendTestBase}, {@link TwoPhaseSnapshotTestBase})
 * run on: backends of the store under test created with a manual TTL clock ({@link #clock}) and local
 * directories under the JUnit temporary directory {@link #tempDir}, closed after each test;
 * snapshots to files and memory; and the descriptors, timers and small helpers the suites share.
 *
 * <p>A subclass provides {@link #backend()}; it may override {@link #localDirectories()} to place
 * working files elsewhere. Every test has a time limit, so a hanging store fails instead of stalling
 * the build.
 */
@Timeout(120)
public abstract class StateBackendTestFixture {

    /** The max parallelism of every backend these tests create. */
    protected static final int KEY_GROUPS = 128;

    protected static final KeyGroupRange ALL = KeyGroupRange.of(0, KEY_GROUPS - 1);

    /** Per test; snapshots and store working files go here. */
    @TempDir
    protected Path tempDir;

    /** The TTL clock of every backend created by {@link #createBackend}. */
    protected final ManualClock clock = new ManualClock();

    private final List<KeyedStateBackend<?>> created = new ArrayList<>();
    private final AtomicInteger backendCounter = new AtomicInteger();

    /** The store under test. */
    protected abstract StateBackend backend();

    /** Where created backends may put working files; a fresh directory under {@link #tempDir} by default. */
    protected List<File> localDirectories() throws IOException {
        return List.of(Files.createDirectories(tempDir.resolve("local-" + backendCounter.get())).toFile());
    }

    /** A TTL clock that tests move by hand. */
    protected static final class ManualClock implements TtlTimeProvider {
        private long now = 1_000_000L;

        @Override
        public long currentTimestamp() {
            return now;
        }

        public void advance(long millis) {
            now += millis;
        }

        public void set(long millis) {
            now = millis;
        }
    }

    // ------------------------------------------------------------------ helpers

    protected <K> KeyedStateBackend<K> createBackend(TypeSerializer<K> keySerializer, KeyGroupRange range,
            Collection<KeyedStateHandle> restoreState) throws Exception {
        int n = backendCounter.incrementAndGet();
        KeyedStateBackendParameters<K> parameters = new KeyedStateBackendParameters<>(
                "operator-" + n, "test-operator-" + n, 0, keySerializer, KEY_GROUPS, range, restoreState,
                new SerializerConfig(), new Configuration(), localDirectories(), clock);
        KeyedStateBackend<K> backend = backend().createKeyedStateBackend(parameters);
        created.add(backend);
        return backend;
    }

    protected KeyedStateBackend<Integer> createBackend() throws Exception {
        return createBackend(IntSerializer.INSTANCE, ALL, List.of());
    }

    protected KeyedStateBackend<Integer> restore(KeyGroupRange range, KeyedStateHandle... handles) throws Exception {
        return createBackend(IntSerializer.INSTANCE, range, Arrays.asList(handles));
    }

    @AfterEach
    void closeBackends() throws IOException {
        for (KeyedStateBackend<?> backend : created) {
            backend.close();
        }
        created.clear();
    }

    /** Snapshots {@code range} of {@code backend} into a file. */
    protected KeyedStateHandle snapshotToFile(KeyedStateBackend<?> backend, KeyGroupRange range) throws IOException {
        Path file = Files.createTempFile(tempDir, "snapshot-", ".rnks");
        KeyGroupRangeOffsets offsets;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(file))) {
            offsets = backend.snapshot(range, out);
        }
        return KeyGroupsStateHandle.inFile(file, Files.size(file), offsets);
    }

    /** Snapshots {@code range} of {@code backend} into memory. */
    protected KeyGroupsStateHandle snapshotToMemory(KeyedStateBackend<?> backend, KeyGroupRange range)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        KeyGroupRangeOffsets offsets = backend.snapshot(range, out);
        return KeyGroupsStateHandle.inMemory("test snapshot", out.toByteArray(), offsets);
    }

    protected static int keyGroupOf(Object key) {
        return KeyGroupRangeAssignment.assignToKeyGroup(key, KEY_GROUPS);
    }

    /** A key whose key group is in {@code range}, searching from {@code from}. */
    protected static int keyIn(KeyGroupRange range, int from) {
        int key = from;
        while (!range.contains(keyGroupOf(key))) {
            key++;
        }
        return key;
    }

    /** Every message in the cause chain of {@code t}, joined, for checking what an error names. */
    protected static String messages(Throwable t) {
        StringBuilder sb = new StringBuilder();
        for (Throwable c = t; c != null; c = c.getCause()) {
            sb.append(c.getClass().getName()).append(": ").append(c.getMessage()).append('\n');
        }
        return sb.toString();
    }

    protected static ValueStateDescriptor<Long> longValue(String name) {
        return new ValueStateDescriptor<>(name, LongSerializer.INSTANCE);
    }

    protected static ListStateDescriptor<String> stringList(String name) {
        return new ListStateDescriptor<>(name, StringSerializer.INSTANCE);
    }

    protected static MapStateDescriptor<Integer, String> intStringMap(String name) {
        return new MapStateDescriptor<>(name, IntSerializer.INSTANCE, StringSerializer.INSTANCE);
    }

    protected static ReducingStateDescriptor<Long> sum(String name) {
        return new ReducingStateDescriptor<>(name, Long::sum, LongSerializer.INSTANCE);
    }

    /** Averages ints: the accumulator is "count,sum" in a string (so it has a non-trivial serializer). */
    protected static final class Average implements AggregateFunction<Integer, String, Double> {
        protected static final long serialVersionUID = 1L;

        @Override
        public String createAccumulator() {
            return "0,0";
        }

        @Override
        public String add(Integer value, String acc) {
            String[] p = acc.split(",");
            return (Long.parseLong(p[0]) + 1) + "," + (Long.parseLong(p[1]) + value);
        }

        @Override
        public Double getResult(String acc) {
            String[] p = acc.split(",");
            return Double.parseDouble(p[1]) / Long.parseLong(p[0]);
        }

        @Override
        public String merge(String a, String b) {
            String[] x = a.split(",");
            String[] y = b.split(",");
            return (Long.parseLong(x[0]) + Long.parseLong(y[0])) + "," + (Long.parseLong(x[1]) + Long.parseLong(y[1]));
        }
    }

    protected static AggregatingStateDescriptor<Integer, String, Double> average(String name) {
        return new AggregatingStateDescriptor<>(name, new Average(), StringSerializer.INSTANCE);
    }

    protected static <T> List<T> list(Iterable<T> iterable) {
        List<T> result = new ArrayList<>();
        iterable.forEach(result::add);
        return result;
    }

    protected static <K, V> Map<K, V> map(Iterable<Map.Entry<K, V>> entries) {
        Map<K, V> result = new HashMap<>();
        for (Map.Entry<K, V> e : entries) {
            result.put(e.getKey(), e.getValue());
        }
        return result;
    }

    @SuppressWarnings("unchecked")
    protected static <T> T internal(Object state) {
        return (T) state;
    }

    // ------------------------------------------------------------------ timers

    protected static final TimerSerializer<Integer, Long> TIMER_SERIALIZER =
            new TimerSerializer<>(IntSerializer.INSTANCE, LongSerializer.INSTANCE);

    protected static KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<Integer, Long>> timers(
            KeyedStateBackend<Integer> backend, String name) {
        // The comparator operators use: a long priority, which lets queues compare without the elements,
        // and the timer's parts, which let the heap store's buckets keep key and namespace instead of timers.
        LongPriorityComparator<TimerHeapInternalTimer<Integer, Long>> byTimestamp = TimerHeapInternalTimer.byTimestamp();
        return backend.create(name, TIMER_SERIALIZER, byTimestamp, TimerHeapInternalTimer::getKey);
    }

    protected static TimerHeapInternalTimer<Integer, Long> timer(long time, int key, long namespace) {
        return new TimerHeapInternalTimer<>(time, key, namespace);
    }

    protected static List<TimerHeapInternalTimer<Integer, Long>> drain(
            KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<Integer, Long>> queue) {
        List<TimerHeapInternalTimer<Integer, Long>> result = new ArrayList<>();
        TimerHeapInternalTimer<Integer, Long> t;
        while ((t = queue.poll()) != null) {
            result.add(t);
        }
        return result;
    }

    protected static Set<Integer> keysIn(KeyGroupRange range, int upTo) {
        Set<Integer> keys = new HashSet<>();
        for (int key = 0; key < upTo; key++) {
            if (range.contains(keyGroupOf(key))) {
                keys.add(key);
            }
        }
        return keys;
    }
}
