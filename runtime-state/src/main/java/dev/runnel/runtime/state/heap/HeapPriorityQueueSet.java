package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.InternalPriorityQueue;
import dev.runnel.runtime.state.queue.PriorityComparator;
import java.util.Iterator;

/**
 * The heap store's queue of one key group: a {@link HeapPriorityQueue} plus a hash index from each
 * element to the queued instance ({@link SlotIndex}), which gives the set semantics of {@link InternalPriorityQueue}
 * (adding an element equal to a queued one changes nothing; removing by an equal element finds the
 * queued instance). It is itself a {@link HeapPriorityQueueElement}, so that a
 * {@link KeyGroupPartitionedPriorityQueue} can keep the queues of all key groups in a heap ordered by
 * their heads.
 *
 * <p>Task thread only; no locks. Elements must not be null and must not change their
 * {@code equals}/{@code hashCode} while queued.
 *
 * @param <T> the element type
 */
public final class HeapPriorityQueueSet<T extends HeapPriorityQueueElement>
        implements InternalPriorityQueue<T>, HeapPriorityQueueElement, KeyGroupPartitionedPriorityQueue.KeyGroupQueue {

    private final HeapPriorityQueue<T> heap;
    private final SlotIndex<T> dedup;
    private int internalIndex = NOT_CONTAINED;
    private final int keyGroupId;

    /**
     * @param comparator orders the elements
     * @param initialCapacity expected number of elements (0 allocates on first add)
     */
    public HeapPriorityQueueSet(PriorityComparator<T> comparator, int initialCapacity) {
        this(comparator, initialCapacity, -1);
    }

    /**
     * @param comparator orders the elements
     * @param initialCapacity expected number of elements (0 allocates on first add)
     * @param keyGroupId the key group whose elements this queue holds (negative: not said)
     */
    public HeapPriorityQueueSet(PriorityComparator<T> comparator, int initialCapacity, int keyGroupId) {
        this.keyGroupId = keyGroupId;
        this.heap = new HeapPriorityQueue<>(comparator, initialCapacity);
        this.dedup = new SlotIndex<>(heap);
    }

    /** The factory that {@link KeyGroupPartitionedPriorityQueue} uses for the heap store. */
    public static <T extends HeapPriorityQueueElement>
            KeyGroupPartitionedPriorityQueue.PartitionQueueFactory<T, HeapPriorityQueueSet<T>> factory() {
        return (keyGroup, numberOfKeyGroups, keyExtractor, comparator) -> new HeapPriorityQueueSet<>(comparator, 0,
                keyGroup);
    }

    @Override
    public int keyGroupId() {
        return keyGroupId;
    }

    @Override
    public T poll() {
        T head = heap.peek();
        if (head != null) {
            dedup.removeSlot(SlotIndex.hashOf(head), head.getInternalIndex());
            heap.poll();
        }
        return head;
    }

    @Override
    public T peek() {
        return heap.peek();
    }

    /** Adds {@code element} unless an equal one is queued; true if it became the head. */
    @Override
    public boolean add(T element) {
        int hash = SlotIndex.hashOf(element);
        if (dedup.get(element, hash) != null) {
            return false;
        }
        boolean headChanged = heap.add(element);
        dedup.add(hash, element.getInternalIndex());
        return headChanged;
    }

    /** Removes the queued element equal to {@code element}, if any; true if it was the head. */
    @Override
    public boolean remove(T element) {
        int hash = SlotIndex.hashOf(element);
        T queued = dedup.get(element, hash);
        if (queued == null) {
            return false;
        }
        dedup.removeSlot(hash, queued.getInternalIndex());
        return heap.remove(queued);
    }

    /** True if an element equal to {@code element} is queued. */
    public boolean contains(T element) {
        return dedup.get(element, SlotIndex.hashOf(element)) != null;
    }

    @Override
    public boolean isEmpty() {
        return heap.isEmpty();
    }

    @Override
    public int size() {
        return heap.size();
    }

    /** Removes every element. */
    public void clear() {
        heap.clear();
        dedup.clear();
    }

    /** The queued elements in no particular order; the queue must not change while iterating. */
    @Override
    public Iterator<T> iterator() {
        return heap.iterator();
    }

    @Override
    public int getInternalIndex() {
        return internalIndex;
    }

    @Override
    public void setInternalIndex(int newIndex) {
        this.internalIndex = newIndex;
    }

    @Override
    public String toString() {
        return "HeapPriorityQueueSet{size=" + heap.size() + ", head=" + heap.peek() + '}';
    }
}
