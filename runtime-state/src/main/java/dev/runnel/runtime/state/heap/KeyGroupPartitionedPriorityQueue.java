package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.InternalPriorityQueue;
import dev.runnel.runtime.state.queue.KeyExtractorFunction;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PriorityComparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * A priority queue split into one queue per key group, so that each key group's elements can be
 * snapshotted and moved on rescale on their own, while the whole still polls in priority order.
 *
 * <p>The per-key-group queues sit in a heap of their own, ordered by each queue's head (empty queues
 * last). {@link #peek()} is the head of the first queue; {@link #poll()} takes it and re-sorts only
 * that queue in the heap of queues, O(log #key groups). {@link #add} and {@link #remove} go to the
 * element's key group ({@link KeyGroupRangeAssignment#assignToKeyGroup} of the extracted key) and
 * re-sort that queue only if its head changed. Both return whether the overall head changed.
 *
 * <p>Generic over the per-key-group queue: the heap store uses {@link HeapPriorityQueueSet}
 * ({@link HeapPriorityQueueSet#factory()}) for elements not ordered by a long (its timers, ordered by one, share
 * a {@link BucketedPriorityQueueSet} across the range); a store that keeps elements elsewhere (RocksDB) supplies a
 * {@link PartitionQueueFactory} whose queues implement the same set semantics and report head changes
 * exactly. All queues are created up front, one per key group of the range.
 *
 * <p>Task thread only; no locks. Elements whose key group is outside the range are rejected.
 *
 * @param <T> the element type
 * @param <PQ> the per-key-group queue type
 */
public final class KeyGroupPartitionedPriorityQueue<T, PQ extends InternalPriorityQueue<T> & HeapPriorityQueueElement>
        implements KeyGroupSnapshotQueue<T> {

    /**
     * Creates the queue of one key group.
     *
     * <p>The queue must have the set semantics of {@link InternalPriorityQueue}, return from
     * {@code add}/{@code remove} exactly whether its own head changed, and keep the heap index it is
     * given through {@link HeapPriorityQueueElement}.
     *
     * @param <T> the element type
     * @param <PQ> the queue type
     */
    @FunctionalInterface
    public interface PartitionQueueFactory<T, PQ extends InternalPriorityQueue<T> & HeapPriorityQueueElement> {

        PQ create(int keyGroupId, int numberOfKeyGroups, KeyExtractorFunction<T> keyExtractor,
                PriorityComparator<T> elementComparator);
    }

    /**
     * A key group's queue that says which key group it holds, so that the partitioned queue can name the key
     * group of its head ({@link #peekKeyGroup()}) without hashing the head's key.
     */
    public interface KeyGroupQueue {

        /** The key group whose elements this queue holds; negative if it was not told. */
        int keyGroupId();
    }

    private final KeyExtractorFunction<T> keyExtractor;
    private final PriorityComparator<T> elementComparator;
    private final KeyGroupRange keyGroupRange;
    private final int numberOfKeyGroups;
    private final int firstKeyGroup;
    /** The queue of key group {@code firstKeyGroup + i} at index {@code i}. */
    private final Object[] queuesByKeyGroup;
    /** The same queues, ordered by their heads. */
    private final HeapPriorityQueue<PQ> heapOfQueues;
    /** Whether every queue is a {@link KeyGroupQueue} that knows its key group. */
    private final boolean queuesKnowTheirKeyGroups;

    /**
     * @param keyExtractor the key of an element, which decides its key group
     * @param elementComparator orders the elements
     * @param factory creates the queue of each key group
     * @param keyGroupRange the key groups this queue holds
     * @param numberOfKeyGroups the max parallelism
     */
    public KeyGroupPartitionedPriorityQueue(
            KeyExtractorFunction<T> keyExtractor,
            PriorityComparator<T> elementComparator,
            PartitionQueueFactory<T, PQ> factory,
            KeyGroupRange keyGroupRange,
            int numberOfKeyGroups) {
        this.keyExtractor = Objects.requireNonNull(keyExtractor, "keyExtractor");
        this.elementComparator = Objects.requireNonNull(elementComparator, "elementComparator");
        this.keyGroupRange = Objects.requireNonNull(keyGroupRange, "keyGroupRange");
        KeyGroupRangeAssignment.checkMaxParallelism(numberOfKeyGroups);
        this.numberOfKeyGroups = numberOfKeyGroups;
        this.firstKeyGroup = keyGroupRange.getStartKeyGroup();
        int count = keyGroupRange.getNumberOfKeyGroups();
        this.queuesByKeyGroup = new Object[count];
        this.heapOfQueues = new HeapPriorityQueue<>(queueOrder(elementComparator), count);
        boolean knowKeyGroups = true;
        for (int i = 0; i < count; i++) {
            PQ queue = Objects.requireNonNull(
                    factory.create(firstKeyGroup + i, numberOfKeyGroups, keyExtractor, elementComparator),
                    "the partition queue factory returned null");
            queuesByKeyGroup[i] = queue;
            heapOfQueues.add(queue);
            knowKeyGroups &= queue instanceof KeyGroupQueue known && known.keyGroupId() == firstKeyGroup + i;
        }
        this.queuesKnowTheirKeyGroups = knowKeyGroups;
    }

    /**
     * How the queues are ordered: by their heads. When elements have a long priority, a queue's key
     * is its head's (Long.MAX_VALUE when empty), kept by the heap of queues so that re-sorting a queue
     * touches no other queue's elements; see {@link #firstQueue()} for the one tie that matters.
     */
    private PriorityComparator<PQ> queueOrder(PriorityComparator<T> elements) {
        if (elements instanceof LongPriorityComparator<T> byLong) {
            LongPriorityComparator<PQ> byHead = queue -> {
                T head = queue.peek();
                return head == null ? Long.MAX_VALUE : byLong.priorityOf(head);
            };
            return byHead;
        }
        return this::compareHeads;
    }

    /**
     * The queue holding the smallest element, or null if all are empty. With long priorities an empty
     * queue and a queue whose head has priority Long.MAX_VALUE tie, so an empty first queue is not
     * proof that all are empty.
     */
    private PQ firstQueue() {
        PQ first = heapOfQueues.peek();
        if (first == null || !first.isEmpty()) {
            return first;
        }
        for (Object queue : queuesByKeyGroup) {
            if (!queue(queue).isEmpty()) {
                return queue(queue);
            }
        }
        return null;
    }

    /** Empty queues sort last, so the first queue has the smallest element if there is one. */
    private int compareHeads(PQ left, PQ right) {
        T l = left.peek();
        T r = right.peek();
        if (l == null) {
            return r == null ? 0 : 1;
        }
        return r == null ? -1 : elementComparator.comparePriority(l, r);
    }

    @Override
    public T poll() {
        PQ first = firstQueue();
        if (first == null) {
            return null;
        }
        T head = first.poll();
        if (head != null) {
            heapOfQueues.adjustModifiedElement(first);
        }
        return head;
    }

    @Override
    public T peek() {
        PQ first = firstQueue();
        return first == null ? null : first.peek();
    }

    @Override
    public int peekKeyGroup() {
        PQ first = firstQueue();
        if (first == null) {
            return -1;
        }
        return queuesKnowTheirKeyGroups ? ((KeyGroupQueue) first).keyGroupId() : keyGroupOf(first.peek());
    }

    @Override
    public boolean add(T element) {
        return addTo(queueOf(element), element);
    }

    @Override
    public boolean add(T element, int keyGroup) {
        return addTo(keyGroup < 0 ? queueOf(element) : queueOfKeyGroup(keyGroup, element), element);
    }

    private boolean addTo(PQ queue, T element) {
        // Only a new head of its key group can become the overall head, and then it is iff its
        // queue moves to the top of the heap of queues.
        return queue.add(element) && heapOfQueues.adjustModifiedElement(queue) == 0;
    }

    @Override
    public boolean remove(T element) {
        return removeFrom(queueOf(element), element);
    }

    @Override
    public boolean remove(T element, int keyGroup) {
        return removeFrom(keyGroup < 0 ? queueOf(element) : queueOfKeyGroup(keyGroup, element), element);
    }

    private boolean removeFrom(PQ queue, T element) {
        boolean wasFirst = queue == firstQueue();
        if (queue.remove(element)) {
            heapOfQueues.adjustModifiedElement(queue);
            return wasFirst;
        }
        return false;
    }

    @Override
    public boolean isEmpty() {
        return peek() == null;
    }

    /** The number of elements; O(#key groups). */
    @Override
    public int size() {
        int size = 0;
        for (Object queue : queuesByKeyGroup) {
            size += queue(queue).size();
        }
        return size;
    }

    /** Every element, key group by key group; the queue must not change while iterating. */
    @Override
    public Iterator<T> iterator() {
        return new Iterator<>() {
            private int nextQueue;
            private Iterator<T> current = null;

            @Override
            public boolean hasNext() {
                while (current == null || !current.hasNext()) {
                    if (nextQueue >= queuesByKeyGroup.length) {
                        return false;
                    }
                    current = queue(queuesByKeyGroup[nextQueue++]).iterator();
                }
                return true;
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return current.next();
            }
        };
    }

    @Override
    public Set<T> getSubsetForKeyGroup(int keyGroupId) {
        Set<T> subset = new HashSet<>();
        for (Iterator<T> it = getQueueForKeyGroup(keyGroupId).iterator(); it.hasNext(); ) {
            subset.add(it.next());
        }
        return subset;
    }

    @Override
    public Object[][] copyElements(KeyGroupRange range) {
        Object[][] elements = new Object[range.getNumberOfKeyGroups()][];
        for (int i = 0; i < elements.length; i++) {
            PQ partition = getQueueForKeyGroup(range.getStartKeyGroup() + i);
            Object[] copy = new Object[partition.size()];
            int n = 0;
            for (Iterator<T> it = partition.iterator(); it.hasNext(); ) {
                copy[n++] = it.next();
            }
            elements[i] = copy;
        }
        return elements;
    }

    /** The queue of {@code keyGroupId}, e.g. to snapshot it; changes to it must go through this queue. */
    public PQ getQueueForKeyGroup(int keyGroupId) {
        if (!keyGroupRange.contains(keyGroupId)) {
            throw new IllegalArgumentException("key group " + keyGroupId + " is not in this queue's " + keyGroupRange);
        }
        return queue(queuesByKeyGroup[keyGroupId - firstKeyGroup]);
    }

    @Override
    public KeyGroupRange getKeyGroupRange() {
        return keyGroupRange;
    }

    @Override
    public int keyGroupOf(T element) {
        return KeyGroupRangeAssignment.assignToKeyGroup(keyExtractor.extractKeyFromElement(element), numberOfKeyGroups);
    }

    private PQ queueOf(T element) {
        return queueOfKeyGroup(keyGroupOf(element), element);
    }

    private PQ queueOfKeyGroup(int keyGroup, T element) {
        int index = keyGroup - firstKeyGroup;
        if (index < 0 || index >= queuesByKeyGroup.length) {
            throw new IllegalArgumentException("element " + element + " belongs to key group " + keyGroup
                    + ", which is not in this queue's " + keyGroupRange + ": queue elements only for keys this"
                    + " subtask owns (the current key of the operator)");
        }
        return queue(queuesByKeyGroup[index]);
    }

    @SuppressWarnings("unchecked")
    private PQ queue(Object queue) {
        return (PQ) queue;
    }

    @Override
    public String toString() {
        return "KeyGroupPartitionedPriorityQueue{" + keyGroupRange + ", head=" + peek() + '}';
    }
}
