package dev.runnel.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.state.MapState;
import dev.runnel.api.common.state.ReducingState;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.ListSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.runtime.state.internal.InternalAggregatingState;
import dev.runnel.runtime.state.internal.InternalListState;
import dev.runnel.runtime.state.internal.InternalReducingState;
import dev.runnel.runtime.state.internal.InternalValueState;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotReader;
import dev.runnel.runtime.state.snapshot.format.SnapshotEntryCursor;
import dev.runnel.runtime.state.snapshot.format.SnapshotSection;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Two-phase snapshots, run against each store by a subclass: a snapshot holds exactly the state of
 * its synchronous phase, however the task changes the state after it, also while another thread
 * writes the snapshot out; overlapping snapshots each hold their own moment; a released snapshot is
 * never written and leaves the state intact; releasing or closing stops a write in progress.
 *
 * <p>Every state kind takes part, in the void namespace and per window: primitive values (which the
 * heap store keeps in place), lists (also merged across namespaces), maps, reducing and aggregating
 * state, values and reduce results that user code changes in place before writing them back, and
 * timers. Each test drives random changes on the test thread, which plays the task thread, against a
 * model; copies of the model taken at each synchronous phase are what the restored snapshots must
 * equal, and after all of it the live backend must still equal the live model.
 *
 * <p>Writes run on a second thread through {@link GateStream}, which stops the write in the middle
 * (after the first key group) until the test thread has made its changes, so that changes during the
 * write are certain, not a matter of timing.
 */
public abstract class TwoPhaseSnapshotTestBase extends StateBackendTestFixture {

    /** Keys are drawn from [0, KEYS). */
    private static final int KEYS = 2_000;
    private static final int NAMESPACES = 4;
    /** How long a test waits for the other thread at most; the class timeout bounds the whole test. */
    private static final long WAIT_SECONDS = 60;

    private final ExecutorService writers = Executors.newFixedThreadPool(2);

    @AfterEach
    void stopWriters() {
        writers.shutdownNow();
    }

    // ------------------------------------------------------------------ tests

    @Test
    void aSnapshotHoldsTheStateOfItsSynchronousPhaseWhileTheTaskChangesIt() throws Exception {
        Task task = new Task(createBackend(), 1);
        task.change(12_000);
        KeyedStateSnapshot snapshot = task.states.backend.snapshotSync(ALL);
        Map<Cell, Object> atSnapshot = copy(task.model);
        task.change(6_000);
        Write write = task.startWrite(snapshot);
        task.change(6_000); // while the write is in the middle
        task.resumeWhileChanging(write);

        assertThat(readAll(new States(restore(ALL, write.handle())), ALL)).isEqualTo(atSnapshot);
        task.assertLiveStateIsTheModel();
    }

    @Test
    void overlappingSnapshotsEachHoldTheirOwnMoment() throws Exception {
        Task task = new Task(createBackend(), 2);
        task.change(10_000);
        KeyedStateSnapshot first = task.states.backend.snapshotSync(ALL);
        Map<Cell, Object> atFirst = copy(task.model);
        task.change(5_000);
        KeyedStateSnapshot second = task.states.backend.snapshotSync(ALL);
        Map<Cell, Object> atSecond = copy(task.model);
        task.change(5_000);

        // the later one is written first, and both while the task goes on
        Write secondWrite = task.startWrite(second);
        task.change(3_000);
        Write firstWrite = task.startWrite(first);
        task.change(3_000);
        task.resumeWhileChanging(secondWrite, firstWrite);

        assertThat(readAll(new States(restore(ALL, firstWrite.handle())), ALL)).isEqualTo(atFirst);
        assertThat(readAll(new States(restore(ALL, secondWrite.handle())), ALL)).isEqualTo(atSecond);
        task.assertLiveStateIsTheModel();
    }

    @Test
    void aSnapshotOfSomeKeyGroupsHoldsThoseAtItsMoment() throws Exception {
        Task task = new Task(createBackend(), 3);
        task.change(10_000);
        KeyGroupRange part = KeyGroupRange.of(20, 59);
        KeyedStateSnapshot snapshot = task.states.backend.snapshotSync(part);
        Map<Cell, Object> atSnapshot = copy(task.model);
        Write write = task.startWrite(snapshot);
        task.change(8_000);
        task.resumeWhileChanging(write);

        KeyGroupsStateHandle handle = write.handle();
        assertThat(handle.getKeyGroupRangeOffsets().getKeyGroupRange()).isEqualTo(part);
        assertThat(readAll(new States(restore(part, handle)), part)).isEqualTo(inRange(atSnapshot, part));
        assertThat(readAll(new States(restore(ALL, handle)), ALL)).as("a wider backend holds only those key groups")
                .isEqualTo(inRange(atSnapshot, part));
        task.assertLiveStateIsTheModel();
    }

    @Test
    void aReleasedSnapshotIsNotWrittenAndTheStateStaysRight() throws Exception {
        Task task = new Task(createBackend(), 4);
        task.change(8_000);
        KeyedStateSnapshot released = task.states.backend.snapshotSync(ALL);
        task.change(4_000);
        released.release();
        released.release(); // harmless
        task.change(4_000);
        assertThatThrownBy(() -> released.writeTo(new ByteArrayOutputStream()))
                .isInstanceOf(IOException.class).hasMessageContaining("released");

        // a later snapshot is unaffected
        KeyedStateSnapshot next = task.states.backend.snapshotSync(ALL);
        Map<Cell, Object> atNext = copy(task.model);
        task.change(4_000);
        assertThat(readAll(new States(restore(ALL, writeAtOnce(next))), ALL)).isEqualTo(atNext);
        task.assertLiveStateIsTheModel();
    }

    @Test
    void releasingWhileWritingStopsTheWrite() throws Exception {
        Task task = new Task(createBackend(), 5);
        task.change(4_000);
        KeyedStateSnapshot snapshot = task.states.backend.snapshotSync(ALL);
        Write write = task.startWrite(snapshot);
        snapshot.release();
        write.out.resume();
        assertThatThrownBy(write::handle)
                .isInstanceOf(ExecutionException.class)
                .cause().isInstanceOf(IOException.class).hasMessageContaining("released while it was written");
        task.assertLiveStateIsTheModel();
    }

    @Test
    void closingTheBackendReleasesPendingSnapshotsAndWaitsForAWrite() throws Exception {
        KeyedStateBackend<Integer> backend = createBackend();
        Task task = new Task(backend, 6);
        task.change(4_000);
        KeyedStateSnapshot pending = backend.snapshotSync(ALL);
        Write write = task.startWrite(backend.snapshotSync(ALL));
        // close from another thread: it must wait for the write, which waits for the gate
        Future<?> closed = writers.submit(() -> {
            backend.close();
            return null;
        });
        assertThat(closed).as("closing while a write is paused").isNotDone();
        write.out.resume();
        closed.get(WAIT_SECONDS, TimeUnit.SECONDS);

        assertThatThrownBy(() -> pending.writeTo(new ByteArrayOutputStream()))
                .isInstanceOf(IOException.class).hasMessageContaining("released");
        // the write stopped, or finished before the close reached it; either way it read a live database
        try {
            assertThat(readAll(new States(restore(ALL, write.handle())), ALL)).isEqualTo(task.model);
        } catch (ExecutionException e) {
            assertThat(e.getCause()).isInstanceOf(IOException.class).hasMessageContaining("released");
        }
    }

    @Test
    void aSnapshotIsWrittenOnce() throws Exception {
        Task task = new Task(createBackend(), 7);
        task.change(1_000);
        KeyedStateSnapshot snapshot = task.states.backend.snapshotSync(ALL);
        assertThat(snapshot.getKeyGroupRange()).isEqualTo(ALL);
        snapshot.writeTo(new ByteArrayOutputStream());
        assertThatThrownBy(() -> snapshot.writeTo(new ByteArrayOutputStream()))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("once");
        assertThatThrownBy(() -> task.states.backend.snapshotSync(KeyGroupRange.of(100, KEY_GROUPS)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("cannot snapshot");
    }

    @Test
    void restoredStateRegisteredAfterTheSynchronousPhaseIsSnapshottedAsRestored() throws Exception {
        Task source = new Task(createBackend(), 8);
        source.change(6_000);
        KeyedStateBackend<Integer> restored = restore(ALL, snapshotToMemory(source.states.backend, ALL));
        KeyedStateSnapshot snapshot = restored.snapshotSync(ALL); // no state registered yet
        Task late = new Task(restored, 9, copy(source.model));
        late.change(6_000);

        assertThat(readAll(new States(restore(ALL, writeAtOnce(snapshot))), ALL)).isEqualTo(source.model);
        late.assertLiveStateIsTheModel();
    }

    // ------------------------------------------------------------------ the task and the writes

    /** The test thread in the role of the task: its states, their model and its random changes. */
    private final class Task {
        final States states;
        final Map<Cell, Object> model;
        private final Random random;

        Task(KeyedStateBackend<Integer> backend, long seed) throws Exception {
            this(backend, seed, new HashMap<>());
        }

        /** A task on a backend that already holds what {@code model} says. */
        Task(KeyedStateBackend<Integer> backend, long seed, Map<Cell, Object> model) throws Exception {
            this.states = new States(backend);
            this.model = model;
            this.random = new Random(seed);
        }

        void change(int changes) throws Exception {
            changeRandomly(states, model, random, changes);
        }

        /** Starts writing {@code snapshot} on another thread; returns once the write is paused in the middle. */
        Write startWrite(KeyedStateSnapshot snapshot) throws InterruptedException {
            GateStream out = new GateStream();
            Future<KeyGroupRangeOffsets> done = writers.submit(() -> snapshot.writeTo(out));
            out.awaitPaused();
            return new Write(out, done);
        }

        /** Lets the writes go on and changes the state until every one of them is done. */
        void resumeWhileChanging(Write... writes) throws Exception {
            for (Write write : writes) {
                write.out.resume();
            }
            for (Write write : writes) {
                while (!write.done.isDone()) {
                    change(100);
                }
            }
        }

        void assertLiveStateIsTheModel() throws Exception {
            assertThat(readAll(states, ALL)).as("the live state").isEqualTo(model);
        }
    }

    /** A snapshot being written on another thread. */
    private record Write(GateStream out, Future<KeyGroupRangeOffsets> done) {

        /** The written snapshot, waiting for the write to finish. */
        KeyGroupsStateHandle handle() throws Exception {
            out.resume();
            return checkedHandle("two-phase snapshot", out.bytes.toByteArray(), done.get(WAIT_SECONDS, TimeUnit.SECONDS));
        }
    }

    /** Writes {@code snapshot} on another thread, without pausing, and returns it. */
    private KeyGroupsStateHandle writeAtOnce(KeyedStateSnapshot snapshot) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        KeyGroupRangeOffsets offsets = writers.submit(() -> snapshot.writeTo(bytes)).get(WAIT_SECONDS, TimeUnit.SECONDS);
        return checkedHandle("snapshot", bytes.toByteArray(), offsets);
    }

    // ------------------------------------------------------------------ states and their model

    /** One value of the model: a state, a key, a namespace, and for maps and timers what within them. */
    private record Cell(String state, int key, long namespace, long detail) {}

    /** Every state this suite uses, registered in one backend. */
    private static final class States {
        final KeyedStateBackend<Integer> backend;
        final ValueState<Long> value;
        final InternalValueState<Integer, Long, Long> perWindow;
        final InternalListState<Integer, Long, String> list;
        final MapState<Integer, String> map;
        final ReducingState<Long> sum;
        final InternalAggregatingState<Integer, VoidNamespace, Integer, String, Double> average;
        /** Changed in place by the caller, then written back. */
        final ValueState<List<Long>> inPlace;
        /** Per window; the reduce function appends to its first argument. */
        final InternalReducingState<Integer, Long, List<Long>> appended;
        final KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<Integer, Long>> timers;

        States(KeyedStateBackend<Integer> backend) throws Exception {
            this.backend = backend;
            value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, longValue("value"));
            perWindow = internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, longValue("per-window")));
            list = internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE, stringList("list")));
            map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, intStringMap("map"));
            sum = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sum("sum"));
            average = internal(backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, average("average")));
            inPlace = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("in-place", new ListSerializer<>(LongSerializer.INSTANCE)));
            appended = internal(backend.getOrCreateKeyedState(LongSerializer.INSTANCE,
                    new ReducingStateDescriptor<List<Long>>("appended", (a, b) -> {
                        a.addAll(b);
                        return a;
                    }, new ListSerializer<>(LongSerializer.INSTANCE))));
            timers = timers(backend, "timers");
        }
    }

    /** Makes {@code changes} random changes to random keys, in {@code states} and in {@code model} alike. */
    private static void changeRandomly(States s, Map<Cell, Object> model, Random random, int changes)
            throws Exception {
        for (int i = 0; i < changes; i++) {
            int key = random.nextInt(KEYS);
            long ns = random.nextInt(NAMESPACES);
            long x = random.nextInt(1_000);
            s.backend.setCurrentKey(key);
            switch (random.nextInt(16)) {
                case 0, 1 -> {
                    s.value.update(x);
                    model.put(new Cell("value", key, 0, 0), x);
                }
                case 2 -> {
                    s.value.clear();
                    model.remove(new Cell("value", key, 0, 0));
                }
                case 3 -> {
                    s.perWindow.setCurrentNamespace(ns);
                    if (random.nextInt(3) == 0) {
                        s.perWindow.clear();
                        model.remove(new Cell("per-window", key, ns, 0));
                    } else {
                        s.perWindow.update(x);
                        model.put(new Cell("per-window", key, ns, 0), x);
                    }
                }
                case 4, 5 -> {
                    s.list.setCurrentNamespace(ns);
                    s.list.add("e" + x);
                    listIn(model, new Cell("list", key, ns, 0)).add("e" + x);
                }
                case 6 -> {
                    s.list.setCurrentNamespace(ns);
                    s.list.update(List.of("u" + x, "v" + x));
                    model.put(new Cell("list", key, ns, 0), new ArrayList<>(List.of("u" + x, "v" + x)));
                }
                case 7 -> mergeLists(s, model, key, ns);
                case 8, 9 -> {
                    int userKey = (int) (x % 5);
                    String userValue = x % 3 == 0 ? null : "m" + x;
                    s.map.put(userKey, userValue);
                    model.put(new Cell("map", key, 0, userKey), userValue == null ? NULL : userValue);
                }
                case 10 -> {
                    s.map.remove((int) (x % 5));
                    model.remove(new Cell("map", key, 0, x % 5));
                }
                case 11 -> {
                    s.sum.add(x);
                    model.merge(new Cell("sum", key, 0, 0), x, (a, b) -> (Long) a + (Long) b);
                }
                case 12 -> {
                    s.average.add((int) x);
                    Cell cell = new Cell("average", key, 0, 0);
                    model.put(cell, new Average().add((int) x, (String) model.getOrDefault(cell, "0,0")));
                }
                case 13 -> {
                    List<Long> current = s.inPlace.value();
                    List<Long> changed = current == null ? new ArrayList<>() : current;
                    changed.add(x); // in place, as user code does
                    s.inPlace.update(changed);
                    listIn(model, new Cell("in-place", key, 0, 0)).add(x);
                }
                case 14 -> {
                    s.appended.setCurrentNamespace(ns);
                    s.appended.add(new ArrayList<>(List.of(x)));
                    listIn(model, new Cell("appended", key, ns, 0)).add(x);
                }
                default -> {
                    TimerHeapInternalTimer<Integer, Long> timer = timer(x, key, ns);
                    Cell cell = new Cell("timer", key, ns, x);
                    if (random.nextInt(3) == 0) {
                        s.timers.remove(timer);
                        model.remove(cell);
                    } else {
                        s.timers.add(timer);
                        model.put(cell, Boolean.TRUE);
                    }
                }
            }
        }
    }

    /** Stands for a null map value in the model (whose absent cells are absent entries). */
    private static final String NULL = "<null>";

    /** Merges the key's lists of the two namespaces after {@code target} into it, in the model too. */
    private static void mergeLists(States s, Map<Cell, Object> model, int key, long target) throws Exception {
        List<Long> sources = List.of((target + 1) % NAMESPACES, (target + 2) % NAMESPACES);
        s.list.mergeNamespaces(target, sources);
        List<Object> merged = new ArrayList<>();
        Object existing = model.get(new Cell("list", key, target, 0));
        if (existing != null) {
            merged.addAll((List<?>) existing);
        }
        for (long source : sources) {
            Object values = model.remove(new Cell("list", key, source, 0));
            if (values != null) {
                merged.addAll((List<?>) values);
            }
        }
        if (!merged.isEmpty()) {
            model.put(new Cell("list", key, target, 0), merged);
        }
    }

    @SuppressWarnings("unchecked")
    private static <T> List<T> listIn(Map<Cell, Object> model, Cell cell) {
        return (List<T>) model.computeIfAbsent(cell, c -> new ArrayList<>());
    }

    /** Everything {@code s} holds for the keys in {@code range}, in the model's form. */
    private static Map<Cell, Object> readAll(States s, KeyGroupRange range) throws Exception {
        Map<Cell, Object> found = new HashMap<>();
        for (int key = 0; key < KEYS; key++) {
            if (!range.contains(keyGroupOf(key))) {
                continue;
            }
            s.backend.setCurrentKey(key);
            putIfPresent(found, new Cell("value", key, 0, 0), s.value.value());
            putIfPresent(found, new Cell("sum", key, 0, 0), s.sum.get());
            putIfPresent(found, new Cell("average", key, 0, 0), s.average.getInternal());
            List<Long> inPlace = s.inPlace.value();
            putIfPresent(found, new Cell("in-place", key, 0, 0), inPlace == null ? null : new ArrayList<>(inPlace));
            for (Map.Entry<Integer, String> e : s.map.entries()) {
                found.put(new Cell("map", key, 0, e.getKey()), e.getValue() == null ? NULL : e.getValue());
            }
            for (long ns = 0; ns < NAMESPACES; ns++) {
                s.perWindow.setCurrentNamespace(ns);
                putIfPresent(found, new Cell("per-window", key, ns, 0), s.perWindow.value());
                s.list.setCurrentNamespace(ns);
                List<Object> list = new ArrayList<>();
                s.list.get().forEach(list::add);
                putIfPresent(found, new Cell("list", key, ns, 0), list.isEmpty() ? null : list);
                s.appended.setCurrentNamespace(ns);
                List<Long> appended = s.appended.get();
                putIfPresent(found, new Cell("appended", key, ns, 0), appended == null ? null : new ArrayList<>(appended));
            }
        }
        for (int kg = range.getStartKeyGroup(); kg <= range.getEndKeyGroup(); kg++) {
            for (TimerHeapInternalTimer<Integer, Long> t : s.timers.getSubsetForKeyGroup(kg)) {
                found.put(new Cell("timer", t.getKey(), t.getNamespace(), t.getTimestamp()), Boolean.TRUE);
            }
        }
        return found;
    }

    private static void putIfPresent(Map<Cell, Object> found, Cell cell, Object value) {
        if (value != null) {
            found.put(cell, value);
        }
    }

    /** A copy of {@code model} that later changes to it do not reach. */
    private static Map<Cell, Object> copy(Map<Cell, Object> model) {
        Map<Cell, Object> copy = new HashMap<>();
        model.forEach((cell, value) -> copy.put(cell, value instanceof List<?> list ? new ArrayList<>(list) : value));
        return copy;
    }

    private static Map<Cell, Object> inRange(Map<Cell, Object> model, KeyGroupRange range) {
        Map<Cell, Object> part = new HashMap<>();
        model.forEach((cell, value) -> {
            if (range.contains(keyGroupOf(cell.key()))) {
                part.put(cell, value);
            }
        });
        return part;
    }

    // ------------------------------------------------------------------ writing

    /**
     * Collects a snapshot's bytes, pausing the writing thread at its third write (after the header
     * and the first key group's block, when every store reads its snapshot already) until
     * {@link #resume()}. The pause is bounded: a write that is never resumed fails.
     */
    private static final class GateStream extends OutputStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CountDownLatch paused = new CountDownLatch(1);
        private final CountDownLatch resumed = new CountDownLatch(1);
        private int writes;

        @Override
        public void write(int b) throws IOException {
            gate();
            bytes.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            gate();
            bytes.write(b, off, len);
        }

        private void gate() throws IOException {
            if (++writes != 3) {
                return;
            }
            paused.countDown();
            try {
                if (!resumed.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                    throw new IOException("the test did not resume the write");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while paused", e);
            }
        }

        void awaitPaused() throws InterruptedException {
            assertThat(paused.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the write reached the gate").isTrue();
        }

        void resume() {
            resumed.countDown();
        }
    }

    /**
     * The snapshot {@code bytes}, after checking that no state lists a key (or a timer) twice in a key
     * group: a restore would quietly keep the last one, so only this shows a store writing an entry
     * twice.
     */
    private static KeyGroupsStateHandle checkedHandle(String name, byte[] bytes, KeyGroupRangeOffsets offsets)
            throws IOException {
        KeyGroupsStateHandle handle = KeyGroupsStateHandle.inMemory(name, bytes, offsets);
        try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(handle)) {
            for (int kg : offsets.getKeyGroupRange()) {
                for (SnapshotSection section : reader.readKeyGroup(kg)) {
                    Set<ByteBuffer> keys = new HashSet<>();
                    SnapshotEntryCursor entries = section.entries();
                    while (entries.next()) {
                        ByteBuffer key = ByteBuffer.wrap(entries.array(), entries.keyOffset(), entries.keyLength());
                        assertThat(keys.add(key)).as("an entry of %s written once", section.describe()).isTrue();
                    }
                }
            }
        }
        return handle;
    }
}
