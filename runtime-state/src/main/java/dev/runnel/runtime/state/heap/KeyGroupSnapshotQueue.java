package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;

/**
 * A priority queue the heap store keeps and snapshots key group by key group: per key group queues
 * ({@link KeyGroupPartitionedPriorityQueue}) or one queue whose elements carry their key group
 * ({@link BucketedPriorityQueueSet}).
 *
 * <p>Task thread only, as the store.
 *
 * @param <T> the element type
 */
interface KeyGroupSnapshotQueue<T> extends KeyGroupedInternalPriorityQueue<T> {

    /** The key group of {@code element}, from its key. */
    int keyGroupOf(T element);

    /** The key groups whose elements this queue holds. */
    KeyGroupRange getKeyGroupRange();

    /**
     * The references of the elements of each key group of {@code range} (a part of this queue's), index
     * {@code i} for key group {@code range.getStartKeyGroup() + i}; the queue must not change meanwhile.
     * Queued elements never change, so the copy is a consistent snapshot.
     */
    Object[][] copyElements(KeyGroupRange range);
}
