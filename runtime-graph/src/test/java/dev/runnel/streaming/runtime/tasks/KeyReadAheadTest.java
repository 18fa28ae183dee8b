package dev.runnel.streaming.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.operators.KeyedProcessOperator;
import dev.runnel.streaming.util.AbstractStreamOperatorTestHarness;
import dev.runnel.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import dev.runnel.util.Collector;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A keyed one-input operator is told the values of the next records of a batch before it processes
 * them (Input.prepareKeyContexts), selects their keys at once and lets a heap backend read ahead for
 * them. The read-ahead must never change what a record sees: its own key, its own state, and, when its
 * key selector fails, an error naming that record and no other.
 */
@Timeout(120)
class KeyReadAheadTest {

    /** Emits (the current key, the count so far) and fails if the current key is not the record's. */
    static final class CountWithKeyCheck extends KeyedProcessFunction<String, String, Tuple2<String, Long>> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext ctx) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(String word, Context ctx, Collector<Tuple2<String, Long>> out) throws Exception {
            if (!ctx.getCurrentKey().equals(word)) {
                throw new IllegalStateException("record '" + word + "' processed under key '" + ctx.getCurrentKey() + "'");
            }
            Long c = count.value();
            long next = c == null ? 1 : c + 1;
            count.update(next);
            out.collect(Tuple2.of(word, next));
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, String, Tuple2<String, Long>> harness(
            String backend) throws Exception {
        var harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new CountWithKeyCheck()),
                (String s) -> s, Types.STRING, 128, 1, 0, AbstractStreamOperatorTestHarness.configuredBackend(backend));
        harness.open();
        return harness;
    }

    @Test
    void bothBackendsTakeAnnouncementsOnlyTheHeapReadsAhead() throws Exception {
        try (var heap = harness("heap"); var rocksdb = harness("rocksdb")) {
            var heapBackend = ((dev.runnel.streaming.api.operators.AbstractStreamOperator<?>) heap.getOperator())
                    .getKeyedStateBackend();
            var rocksBackend = ((dev.runnel.streaming.api.operators.AbstractStreamOperator<?>) rocksdb.getOperator())
                    .getKeyedStateBackend();
            assertThat(heapBackend.prefetchGroupSize()).isPositive();
            assertThat(heap.getOperator().keyContextGroupSize()).isEqualTo(heapBackend.prefetchGroupSize());
            // RocksDB reads nothing ahead, but announced records bring the key hashes of a keyBy edge in memory
            assertThat(rocksBackend.prefetchGroupSize()).isZero();
            assertThat(rocksdb.getOperator().keyContextGroupSize()).isPositive();
        }
    }

    @Test
    void recordsThatAreNotTheAnnouncedOnesGetTheirOwnKey() throws Exception {
        try (var harness = harness("heap")) {
            var op = harness.getOperator();
            int group = op.keyContextGroupSize();
            String[] announced = new String[group];
            for (int i = 0; i < group; i++) {
                announced[i] = "a" + i;
            }
            // announced in order, processed: the first two as announced, then other records, then announced ones
            op.prepareKeyContexts(batchOf((Object[]) announced), 0, group);
            harness.processElement(announced[0]);
            harness.processElement(announced[1]);
            harness.processElement(new String("a1")); // equal, but not the announced object
            harness.processElement("b");
            harness.processElement(announced[2]); // after a mismatch the announcement is dropped
            // a new announcement that is then processed out of order
            op.prepareKeyContexts(batchOf("x", "y", "z"), 0, 3);
            harness.processElement("z");
            harness.processElement("x");
            harness.processElement("y");
            assertThat(harness.extractOutputValues()).containsExactly(Tuple2.of("a0", 1L), Tuple2.of("a1", 1L),
                    Tuple2.of("a1", 2L), Tuple2.of("b", 1L), Tuple2.of("a2", 1L), Tuple2.of("z", 1L),
                    Tuple2.of("x", 1L), Tuple2.of("y", 1L));
        }
    }

    @Test
    void countsAreExactOverManyKeysAndBatchesWithAndWithoutObjectReuse() throws Exception {
        for (boolean reuse : new boolean[] {false, true}) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
            if (reuse) {
                env.getConfig().enableObjectReuse();
            }
            int keys = 5_000;
            long n = 200_000;
            List<Tuple2<String, Long>> out = new ArrayList<>();
            env.fromSequence(0, n - 1).map(i -> "k" + (i * 7919 % keys)).returns(Types.STRING)
                    .keyBy(s -> s, Types.STRING).process(new CountWithKeyCheck())
                    .executeAndCollect().forEachRemaining(out::add);
            Map<String, Long> highest = new HashMap<>();
            for (Tuple2<String, Long> t : out) {
                highest.merge(t.f0, t.f1, Math::max);
            }
            assertThat(out).hasSize((int) n);
            assertThat(highest).hasSize(keys);
            assertThat(highest.values()).allMatch(c -> c == n / keys);
        }
    }

    /** A selector that fails on "bad" and returns null for "none"; the sending side never runs it here. */
    private static String fragileKey(String s) {
        if (s.equals("bad")) {
            throw new IllegalArgumentException("no key for " + s);
        }
        return s.equals("none") ? null : s;
    }

    @Test
    void aKeySelectorThatFailsOnALaterAnnouncedRecordFailsOnlyThatRecord() throws Exception {
        var harness = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new CountWithKeyCheck()),
                KeyReadAheadTest::fragileKey, Types.STRING);
        try (harness) {
            harness.open();
            var op = harness.getOperator();
            op.keyContextGroupSize();
            // the announcement itself does not fail: the records before the bad one are processed first
            op.prepareKeyContexts(batchOf("a", "b", "bad", "c"), 0, 4);
            harness.processElement("a");
            harness.processElement("b");
            assertThatThrownBy(() -> harness.processElement("bad")).hasMessageContaining("no key for bad");
            op.prepareKeyContexts(batchOf("d", "none", "e"), 0, 3);
            harness.processElement("d");
            assertThatThrownBy(() -> harness.processElement("none"))
                    .hasMessageContaining("returned null for record 'none'");
            harness.processElement("e");
            assertThat(harness.extractOutputValues()).containsExactly(Tuple2.of("a", 1L), Tuple2.of("b", 1L),
                    Tuple2.of("d", 1L), Tuple2.of("e", 1L));
        }
    }

    @Test
    void keyHashesAndKeyGroupsThatCameWithTheRecordsAreTakenAsTheyAre() throws Exception {
        try (var harness = harness("heap")) {
            var op = harness.getOperator();
            int group = Math.min(op.keyContextGroupSize(), 4);
            String[] words = {"a", "b", "a", "c"};
            int[] keyGroups = new int[group];
            RecordBatch hashed = new RecordBatch(group);
            RecordBatch otherKeyGroups = new RecordBatch(group);
            for (int i = 0; i < group; i++) {
                keyGroups[i] = dev.runnel.runtime.state.KeyGroupRangeAssignment.assignToKeyGroup(words[i], 128);
                // The carried key group is taken as it is (the sender's is the truth), so one that differs from
                // the key's own shows that the receiver did not hash the key again.
                hashed.addKeyed(words[i], RecordBatch.NO_TIMESTAMP, words[i].hashCode(), (keyGroups[i] + 1) % 128, 128);
                otherKeyGroups.addKeyed(words[i], RecordBatch.NO_TIMESTAMP, words[i].hashCode(), i + 1, 64);
            }
            var backend = ((dev.runnel.streaming.api.operators.AbstractStreamOperator<?>) op).getKeyedStateBackend();
            op.prepareKeyContexts(hashed, 0, group);
            for (int i = 0; i < group; i++) {
                harness.processElement(words[i]);
                assertThat(backend.getCurrentKeyGroupIndex()).isEqualTo((keyGroups[i] + 1) % 128);
            }
            // key groups out of another max parallelism are not this backend's: the keys are hashed here
            op.prepareKeyContexts(otherKeyGroups, 0, group);
            for (int i = 0; i < group; i++) {
                harness.processElement(words[i]);
                assertThat(backend.getCurrentKeyGroupIndex()).isEqualTo(keyGroups[i]);
            }
            // the first round's counts sit in the shifted key groups, the second's in the keys' own
            assertThat(harness.extractOutputValues()).containsExactly(Tuple2.of("a", 1L), Tuple2.of("b", 1L),
                    Tuple2.of("a", 2L), Tuple2.of("c", 1L), Tuple2.of("a", 1L), Tuple2.of("b", 1L),
                    Tuple2.of("a", 2L), Tuple2.of("c", 1L));
        }
    }

    /** A key whose hash codes are counted. */
    public static final class CountedKey {
        static final java.util.concurrent.atomic.AtomicLong HASHES = new java.util.concurrent.atomic.AtomicLong();
        public String name;

        public CountedKey() {}

        CountedKey(String name) {
            this.name = name;
        }

        @Override
        public int hashCode() {
            HASHES.incrementAndGet();
            return name.hashCode();
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof CountedKey other && other.name.equals(name);
        }
    }

    /** Counts records per key, whatever the key's type. */
    static final class CountPerKey extends KeyedProcessFunction<CountedKey, CountedKey, Long> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext ctx) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(CountedKey key, Context ctx, Collector<Long> out) throws Exception {
            Long c = count.value();
            long next = c == null ? 1 : c + 1;
            count.update(next);
            out.collect(next);
        }
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"hashmap", "rocksdb"})
    void aKeyIsHashedOnceOnItsWayThroughAKeyByInMemory(String stateBackend) throws Exception {
        // One TaskManager, also in the build's run on two: records that cross the network arrive serialized,
        // and their receiver hashes their keys again.
        dev.runnel.configuration.Configuration oneTaskManager = new dev.runnel.configuration.Configuration();
        oneTaskManager.setString("taskmanager.count", "1");
        oneTaskManager.setString("state.backend.type", stateBackend);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2, oneTaskManager);
        int keys = 1_000;
        long n = 100_000;
        CountedKey.HASHES.set(0);
        List<Long> counts = new ArrayList<>();
        env.fromSequence(0, n - 1).map(i -> new CountedKey("k" + i % keys)).returns(CountedKey.class)
                .keyBy(k -> k).process(new CountPerKey())
                .executeAndCollect().forEachRemaining(counts::add);
        assertThat(counts).hasSize((int) n);
        assertThat(counts.stream().mapToLong(Long::longValue).max().orElse(0)).isEqualTo(n / keys);
        // The sender hashes each key once for its channel; the receiver takes the hash and the key group that
        // came with the record (it used to hash every key again).
        assertThat(CountedKey.HASHES.get()).as("hashCode calls for %s records", n).isLessThan(n + n / 10);
    }

    /** A batch of {@code values} without timestamps or key hashes, as a channel hands it to the task. */
    private static RecordBatch batchOf(Object... values) {
        RecordBatch batch = new RecordBatch(values.length);
        for (Object value : values) {
            batch.add(value, RecordBatch.NO_TIMESTAMP);
        }
        return batch;
    }
}
