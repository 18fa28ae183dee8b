package dev.runnel.runtime.state.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;

/**
 * The per-key-group RocksDB timer set: its cache, refill from the hint, deduplication and head-change
 * reports. Elements are non-negative longs, whose big-endian bytes sort like their values.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RocksDBCachingPriorityQueueSetTest {

    private static final int KEY_GROUP = 7;

    @TempDir
    Path tmp;

    private RocksDBInstance instance;
    private ColumnFamilyHandle columnFamily;
    private RocksDBWriteBatcher writes;

    @BeforeEach
    void open() throws Exception {
        instance = RocksDBInstance.open(
                RocksDBWorkingDirectory.create(tmp.toString(), List.of(), "queue-test", 0),
                RocksDBTestBackends.smallSettings());
        columnFamily = instance.createColumnFamily("timers");
        // A small batch, so that tests cross both automatic and explicit flushes.
        writes = new RocksDBWriteBatcher(instance.db(), instance.writeOptions(), 3);
    }

    @AfterEach
    void close() throws Exception {
        writes.close();
        instance.close();
    }

    private RocksDBCachingPriorityQueueSet<Long> newSet(int keyGroup, int capacity, int initialSize) {
        return new RocksDBCachingPriorityQueueSet<>("timers", keyGroup, capacity, initialSize, instance.db(),
                columnFamily, writes, LongSerializer.INSTANCE,
                new DataOutputSerializer(32), new DataInputDeserializer());
    }

    private static byte[] rocksKey(int keyGroup, long element) {
        byte[] key = new byte[10];
        key[0] = (byte) (keyGroup >>> 8);
        key[1] = (byte) keyGroup;
        for (int i = 0; i < 8; i++) {
            key[2 + i] = (byte) (element >>> (56 - 8 * i));
        }
        return key;
    }

    private boolean onDisk(long element) throws Exception {
        writes.flush();
        return instance.db().get(columnFamily, rocksKey(KEY_GROUP, element)) != null;
    }

    @Test
    void pollsInOrderAcrossManyRefills() {
        RocksDBCachingPriorityQueueSet<Long> set = newSet(KEY_GROUP, 4, 0);
        List<Long> values = new ArrayList<>();
        for (long v = 0; v < 100; v++) {
            values.add(v * 3);
        }
        java.util.Collections.shuffle(values, new Random(42));
        set.addAll(values);
        assertThat(set.size()).isEqualTo(100);
        assertThat(set.cachedCount()).isEqualTo(4);

        List<Long> polled = new ArrayList<>();
        Long next;
        while ((next = set.poll()) != null) {
            polled.add(next);
        }
        List<Long> sorted = new ArrayList<>(values);
        sorted.sort(null);
        assertThat(polled).isEqualTo(sorted);
        assertThat(set.isEmpty()).isTrue();
        assertThat(set.size()).isZero();
    }

    @Test
    void addsNotSmallerThanTheCachesLastGoToRocksDBOnly() throws Exception {
        RocksDBCachingPriorityQueueSet<Long> set = newSet(KEY_GROUP, 2, 0);
        set.add(10L);
        set.add(20L);
        assertThat(set.isCacheComplete()).isTrue();

        assertThat(set.add(30L)).isFalse();
        assertThat(set.cachedCount()).isEqualTo(2);
        assertThat(set.isCacheComplete()).isFalse();
        assertThat(onDisk(30L)).isTrue();
        // Write-through: the cached ones are in RocksDB as well.
        assertThat(onDisk(10L)).isTrue();
        assertThat(onDisk(20L)).isTrue();

        // A smaller one enters the cache and pushes the largest cached one out (it stays on disk).
        assertThat(set.add(5L)).isTrue();
        assertThat(set.cachedCount()).isEqualTo(2);
        assertThat(set.size()).isEqualTo(4);
        assertThat(onDisk(20L)).isTrue();
        assertThat(List.of(set.poll(), set.poll(), set.poll(), set.poll())).containsExactly(5L, 10L, 20L, 30L);
        assertThat(onDisk(30L)).isFalse();
    }

    @Test
    void refillSeeksFromTheLastRemovedElementNotFromTheKeyGroupStart() throws Exception {
        RocksDBCachingPriorityQueueSet<Long> set = newSet(KEY_GROUP, 2, 0);
        for (long v : new long[] {10, 20, 30, 40}) {
            set.add(v);
        }
        assertThat(set.poll()).isEqualTo(10L);
        assertThat(set.poll()).isEqualTo(20L);
        // Plant an element below the hint behind the set's back. A refill that seeks from the hint
        // (20) cannot see it; one that scanned from the start of the key group would return it.
        instance.db().put(columnFamily, rocksKey(KEY_GROUP, 15), new byte[0]);

        assertThat(set.peek()).isEqualTo(30L);
        assertThat(set.poll()).isEqualTo(30L);
        assertThat(set.poll()).isEqualTo(40L);
    }

    @Test
    void refillStaysWithinItsKeyGroup() throws Exception {
        RocksDBCachingPriorityQueueSet<Long> mine = newSet(KEY_GROUP, 2, 0);
        RocksDBCachingPriorityQueueSet<Long> next = newSet(KEY_GROUP + 1, 2, 0);
        RocksDBCachingPriorityQueueSet<Long> previous = newSet(KEY_GROUP - 1, 2, 0);
        for (long v = 0; v < 5; v++) {
            mine.add(100 + v);
            next.add(v);
            previous.add(1000 + v);
        }
        List<Long> polled = new ArrayList<>();
        Long value;
        while ((value = mine.poll()) != null) {
            polled.add(value);
        }
        assertThat(polled).containsExactly(100L, 101L, 102L, 103L, 104L);
        assertThat(next.size()).isEqualTo(5);
        assertThat(next.peek()).isZero();
        assertThat(previous.peek()).isEqualTo(1000L);
    }

    @Test
    void deduplicatesInTheCacheAndOnDisk() {
        RocksDBCachingPriorityQueueSet<Long> set = newSet(KEY_GROUP, 2, 0);
        assertThat(set.add(1L)).isTrue();
        assertThat(set.add(1L)).isFalse();
        set.add(2L);
        set.add(3L); // disk only
        set.add(3L);
        set.add(4L);
        set.add(4L);
        assertThat(set.size()).isEqualTo(4);
        // An element equal to the cache's last while the cache is full and complete is a duplicate.
        RocksDBCachingPriorityQueueSet<Long> complete = newSet(KEY_GROUP + 2, 2, 0);
        complete.add(1L);
        complete.add(2L);
        complete.add(2L);
        assertThat(complete.size()).isEqualTo(2);
        assertThat(complete.isCacheComplete()).isTrue();

        List<Long> all = new ArrayList<>();
        set.iterator().forEachRemaining(all::add);
        assertThat(all).containsExactly(1L, 2L, 3L, 4L);
    }

    @Test
    void reportsHeadChanges() {
        RocksDBCachingPriorityQueueSet<Long> set = newSet(KEY_GROUP, 2, 0);
        assertThat(set.add(50L)).as("first element is the new head").isTrue();
        assertThat(set.add(60L)).as("larger element").isFalse();
        assertThat(set.add(40L)).as("smaller element").isTrue();
        assertThat(set.add(70L)).as("disk-only element").isFalse();
        assertThat(set.remove(60L)).as("non-head removal").isFalse();
        assertThat(set.remove(70L)).as("disk-only removal").isFalse();
        assertThat(set.remove(99L)).as("absent element").isFalse();
        assertThat(set.remove(40L)).as("head removal").isTrue();
        assertThat(set.peek()).isEqualTo(50L);
        assertThat(set.size()).isEqualTo(1);
        assertThat(set.remove(50L)).isTrue();
        assertThat(set.peek()).isNull();
        assertThat(set.poll()).isNull();
        assertThat(set.remove(50L)).isFalse();
    }

    @Test
    void removesElementsThatLiveOnlyOnDisk() throws Exception {
        RocksDBCachingPriorityQueueSet<Long> set = newSet(KEY_GROUP, 2, 0);
        for (long v = 1; v <= 6; v++) {
            set.add(v);
        }
        set.remove(5L);
        assertThat(onDisk(5L)).isFalse();
        assertThat(set.size()).isEqualTo(5);
        assertThat(List.of(set.poll(), set.poll(), set.poll(), set.poll(), set.poll())).containsExactly(1L, 2L, 3L, 4L, 6L);
    }

    @Test
    void sizeStaysExactWhenWritesBeyondTheCacheRepeatOrMiss() throws Exception {
        RocksDBCachingPriorityQueueSet<Long> set = newSet(KEY_GROUP, 2, 0);
        for (long v : new long[] {10, 20, 30, 40}) {
            set.add(v);
        }
        assertThat(set.isCacheComplete()).isFalse();
        assertThat(set.add(40L)).isFalse(); // a duplicate beyond the cache
        assertThat(set.remove(35L)).isFalse(); // absent, beyond the cache
        assertThat(set.size()).isEqualTo(4);
        assertThat(set.remove(40L)).isFalse(); // present beyond the cache; the head stays
        assertThat(onDisk(40L)).isFalse();
        assertThat(set.size()).isEqualTo(3);
        assertThat(List.of(set.poll(), set.poll(), set.poll())).containsExactly(10L, 20L, 30L);
        assertThat(set.isEmpty()).isTrue();
        assertThat(set.size()).isZero();
    }

    @Test
    void picksUpElementsAlreadyInRocksDB() throws Exception {
        for (long v : new long[] {9, 3, 7}) {
            instance.db().put(columnFamily, rocksKey(KEY_GROUP, v), new byte[0]);
        }
        RocksDBCachingPriorityQueueSet<Long> set = newSet(KEY_GROUP, 2, 3);
        assertThat(set.isEmpty()).isFalse();
        assertThat(set.add(7L)).as("restored duplicate").isFalse();
        assertThat(set.size()).isEqualTo(3);
        assertThat(set.add(1L)).isTrue();
        assertThat(List.of(set.poll(), set.poll(), set.poll(), set.poll())).containsExactly(1L, 3L, 7L, 9L);
    }

    @Test
    void matchesATreeSetUnderRandomOperations() {
        Random random = new Random(7);
        RocksDBCachingPriorityQueueSet<Long> set = newSet(KEY_GROUP, 8, 0);
        TreeSet<Long> model = new TreeSet<>();
        for (int i = 0; i < 50_000; i++) {
            int op = random.nextInt(10);
            long value = random.nextInt(2_000);
            Long head = model.isEmpty() ? null : model.first();
            if (op < 5) {
                boolean expectChange = !model.contains(value) && (head == null || value < head);
                model.add(value);
                assertThat(set.add(value)).isEqualTo(expectChange);
            } else if (op < 8) {
                boolean expectChange = head != null && head == value;
                model.remove(value);
                assertThat(set.remove(value)).isEqualTo(expectChange);
            } else {
                assertThat(set.poll()).isEqualTo(model.pollFirst());
            }
            assertThat(set.isEmpty()).isEqualTo(model.isEmpty());
            assertThat(set.peek()).isEqualTo(model.isEmpty() ? null : model.first());
            if (i % 64 == 0) {
                // size() may count RocksDB (after writes beyond the cache), so not after every step.
                assertThat(set.size()).isEqualTo(model.size());
            }
        }
        assertThat(set.size()).isEqualTo(model.size());
        List<Long> rest = new ArrayList<>();
        for (Iterator<Long> it = set.iterator(); it.hasNext(); ) {
            rest.add(it.next());
        }
        assertThat(rest).containsExactlyElementsOf(model);
    }
}
