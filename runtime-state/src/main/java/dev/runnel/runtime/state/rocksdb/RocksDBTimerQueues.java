package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.heap.KeyGroupPartitionedPriorityQueue;
import dev.runnel.runtime.state.queue.KeyExtractorFunction;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.PriorityComparator;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Builds a RocksDB timer queue: the shared {@link KeyGroupPartitionedPriorityQueue} over one
 * {@link RocksDBCachingPriorityQueueSet} per key group, all in one column family. For a restored
 * queue the per-key-group sizes are counted in one pass over the column family, so
 * {@code size()} is exact from the start. All queues of a backend write through the backend's one
 * {@link RocksDBWriteBatcher}. Stateless; called on the task thread.
 */
final class RocksDBTimerQueues {

    private RocksDBTimerQueues() {}

    static <T> KeyGroupedInternalPriorityQueue<T> create(RocksDBInstance instance, ColumnFamilyHandle columnFamily,
            String name, TypeSerializer<T> elementSerializer, PriorityComparator<T> comparator,
            KeyExtractorFunction<T> keyExtractor, KeyGroupRange keyGroupRange, int numberOfKeyGroups,
            int cacheSize, boolean restored, RocksDBWriteBatcher writes) {
        int[] sizes = restored
                ? countPerKeyGroup(instance, columnFamily, name, keyGroupRange)
                : new int[keyGroupRange.getNumberOfKeyGroups()];
        // One serialization buffer per queue, shared by its key groups: the task thread uses one at a time.
        DataOutputSerializer out = new DataOutputSerializer(64);
        DataInputDeserializer in = new DataInputDeserializer();
        int firstKeyGroup = keyGroupRange.getStartKeyGroup();
        KeyGroupPartitionedPriorityQueue.PartitionQueueFactory<T, RocksDBCachingPriorityQueueSet<T>> factory =
                (keyGroup, groups, extractor, elementComparator) -> new RocksDBCachingPriorityQueueSet<>(
                        name, keyGroup, cacheSize, sizes[keyGroup - firstKeyGroup], instance.db(), columnFamily,
                        writes, elementSerializer, out, in);
        return new KeyGroupPartitionedPriorityQueue<>(keyExtractor, comparator, factory, keyGroupRange, numberOfKeyGroups);
    }

    /** How many elements each key group of the range holds in {@code columnFamily}. */
    private static int[] countPerKeyGroup(RocksDBInstance instance, ColumnFamilyHandle columnFamily, String name,
            KeyGroupRange keyGroupRange) {
        int[] sizes = new int[keyGroupRange.getNumberOfKeyGroups()];
        byte[] key = new byte[RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES];
        try (RocksIterator iterator = instance.db().newIterator(columnFamily, instance.readOptions())) {
            for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                iterator.key(key);
                int keyGroup = RocksDBKeyBuilder.readKeyGroup(key);
                if (keyGroupRange.contains(keyGroup)) {
                    sizes[keyGroup - keyGroupRange.getStartKeyGroup()]++;
                }
            }
            iterator.status();
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrapUnchecked("count the restored elements of timer queue", name, e);
        }
        return sizes;
    }
}
