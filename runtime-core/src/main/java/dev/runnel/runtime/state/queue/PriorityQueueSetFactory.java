package dev.runnel.runtime.state.queue;

import dev.runnel.api.common.typeutils.TypeSerializer;

/**
 * Creates key-grouped priority queues inside a state backend, so that they live where its state
 * lives (heap or RocksDB) and are part of its snapshots.
 */
public interface PriorityQueueSetFactory {

    /**
     * The queue registered under {@code stateName}, created on first use. On a restored backend it
     * holds the restored elements.
     *
     * @param byteOrderedElementSerializer serializes elements so that byte order equals priority
     *     order (RocksDB iterates in that order); the heap store uses it only for snapshots
     */
    <T extends HeapPriorityQueueElement> KeyGroupedInternalPriorityQueue<T> create(
            String stateName,
            TypeSerializer<T> byteOrderedElementSerializer,
            PriorityComparator<T> comparator,
            KeyExtractorFunction<T> keyExtractor);
}
