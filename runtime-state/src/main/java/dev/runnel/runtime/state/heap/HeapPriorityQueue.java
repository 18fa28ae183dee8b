package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.InternalPriorityQueue;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PriorityComparator;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A binary min-heap in an array whose elements know their own index, so that removing any element,
 * or re-sorting one whose priority changed, costs O(log n) without a search.
 *
 * <pre>
 *   slots:          [ e0 | e1 | e2 | -- | e4 ]   each element sits in a stable slot; it knows the slot
 *   positionOfSlot: [  2 |  0 |  1 | -1 |  3 ]   where each slot's element is in the heap
 *   heap:           [  1 |  2 |  0 |  4 ]        slots in heap order (the binary heap proper)
 *   keys:           [ 10 | 20 | 30 | 40 ]        each heap position's priority, for long priorities
 * </pre>
 *
 * The index an element knows ({@link HeapPriorityQueueElement#getInternalIndex()}) is its slot, which
 * never changes while it is queued. Sifting moves ints (and, for a {@link LongPriorityComparator},
 * longs) in compact arrays: it neither writes to the element objects nor stores references into the
 * long-lived heap array. Both matter on large timer heaps: the first is a cache miss per level, the
 * second a garbage-collector write barrier and a dirty card per level.
 *
 * <p>Contract: an element may be in at most one heap at a time; adding an element that is already
 * in a heap fails. Unlike the {@link InternalPriorityQueue} contract this queue does not deduplicate
 * equal elements, and {@link #remove} removes the given instance; use {@link HeapPriorityQueueSet}
 * for set semantics. {@link #add} and {@link #remove} return whether the head changed. Elements of
 * equal priority come out in no particular order.
 *
 * <p>Task thread only; no locks. Null elements are rejected.
 *
 * @param <T> the element type
 */
public final class HeapPriorityQueue<T extends HeapPriorityQueueElement> implements InternalPriorityQueue<T> {

    private static final Object[] NO_ELEMENTS = new Object[0];
    private static final int[] NO_INTS = new int[0];
    private static final long[] NO_KEYS = new long[0];

    private final PriorityComparator<T> comparator;
    /** Non-null when the order is that of a long per element: then {@link #keys} holds those longs. */
    private final LongPriorityComparator<T> longPriority;

    private Object[] slots = NO_ELEMENTS;
    private int[] positionOfSlot = NO_INTS;
    private int[] freeSlots = NO_INTS;
    private int freeCount;
    private int slotsUsed;

    private int[] heap = NO_INTS;
    private long[] keys = NO_KEYS;
    private int size;

    /**
     * @param comparator orders the elements; the smallest is the head
     * @param initialCapacity how many elements fit before the arrays grow (0 allocates on first add)
     */
    public HeapPriorityQueue(PriorityComparator<T> comparator, int initialCapacity) {
        this.comparator = Objects.requireNonNull(comparator, "comparator");
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initialCapacity must be >= 0, was " + initialCapacity);
        }
        this.longPriority = comparator instanceof LongPriorityComparator<T> lp ? lp : null;
        if (initialCapacity > 0) {
            grow(initialCapacity);
        }
    }

    @Override
    public T peek() {
        return size == 0 ? null : element(heap[0]);
    }

    @Override
    public T poll() {
        if (size == 0) {
            return null;
        }
        T head = element(heap[0]);
        removeAt(0);
        return head;
    }

    /** Adds {@code element} (which must be in no heap); true if it became the head. */
    @Override
    public boolean add(T element) {
        int index = element.getInternalIndex();
        if (index != HeapPriorityQueueElement.NOT_CONTAINED) {
            throw new IllegalArgumentException("element " + element + " is already in a heap (at index " + index
                    + "); an element can be in one heap only, and only once");
        }
        if (size == heap.length) {
            grow(Math.max(8, size + (size >>> 1)));
        }
        int slot = freeCount > 0 ? freeSlots[--freeCount] : slotsUsed++;
        slots[slot] = element;
        element.setInternalIndex(slot);
        int at = size++;
        heap[at] = slot;
        positionOfSlot[slot] = at;
        if (longPriority != null) {
            keys[at] = longPriority.priorityOf(element);
        }
        return siftUp(at) == 0;
    }

    /** Removes this very instance if it is in this heap; true if it was the head. */
    @Override
    public boolean remove(T element) {
        int slot = element.getInternalIndex();
        if (slot < 0 || slot >= slotsUsed || slots[slot] != element) {
            return false;
        }
        int position = positionOfSlot[slot];
        removeAt(position);
        return position == 0;
    }

    /**
     * Restores the heap order after the priority of {@code element}, which is in this heap, changed.
     *
     * @return the element's new position in the heap (0 if it is now the head)
     */
    public int adjustModifiedElement(T element) {
        int slot = element.getInternalIndex();
        if (slot < 0 || slot >= slotsUsed || slots[slot] != element) {
            throw new IllegalArgumentException("element " + element + " is not in this heap");
        }
        int position = positionOfSlot[slot];
        if (longPriority != null) {
            long key = longPriority.priorityOf(element);
            if (key == keys[position]) {
                return position; // the usual case after polling a queue of queues: the same head priority
            }
            keys[position] = key;
        }
        int up = siftUp(position);
        return up != position ? up : siftDown(position);
    }

    /**
     * Puts {@code replacement} (in no heap, of the same priority) where {@code queued} is; the heap
     * order is unchanged and {@code queued} is in no heap afterwards.
     */
    void replace(T queued, T replacement) {
        int slot = queued.getInternalIndex();
        if (slot < 0 || slot >= slotsUsed || slots[slot] != queued) {
            throw new IllegalArgumentException("element " + queued + " is not in this heap");
        }
        if (replacement.getInternalIndex() != HeapPriorityQueueElement.NOT_CONTAINED) {
            throw new IllegalArgumentException("element " + replacement + " is already in a heap");
        }
        slots[slot] = replacement;
        replacement.setInternalIndex(slot);
        queued.setInternalIndex(HeapPriorityQueueElement.NOT_CONTAINED);
    }

    /** The head's long priority (Long.MAX_VALUE when empty), read without touching the head; long priorities only. */
    long headPriority() {
        return size == 0 ? Long.MAX_VALUE : keys[0];
    }

    /** True if {@code element} is this very instance at the head. */
    public boolean isHead(T element) {
        return size > 0 && slots[heap[0]] == element;
    }

    /** The element in {@code slot} (for indexes that refer to elements by slot). */
    @SuppressWarnings("unchecked")
    T elementInSlot(int slot) {
        return (T) slots[slot];
    }

    /** The position of {@code element} in heap order, or -1 when it is not in this heap (for tests). */
    int positionOf(T element) {
        int slot = element.getInternalIndex();
        return slot >= 0 && slot < slotsUsed && slots[slot] == element ? positionOfSlot[slot] : -1;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public int size() {
        return size;
    }

    /** Removes every element (marking each as in no heap) and keeps the arrays. */
    public void clear() {
        for (int i = 0; i < size; i++) {
            element(heap[i]).setInternalIndex(HeapPriorityQueueElement.NOT_CONTAINED);
        }
        Arrays.fill(slots, 0, slotsUsed, null);
        size = 0;
        slotsUsed = 0;
        freeCount = 0;
    }

    /** The element at {@code index} in heap order, for iteration without an iterator. */
    public T elementAt(int index) {
        Objects.checkIndex(index, size);
        return element(heap[index]);
    }

    /** The elements in heap order; does not support removal, and the heap must not change meanwhile. */
    @Override
    public Iterator<T> iterator() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < size;
            }

            @Override
            public T next() {
                if (next >= size) {
                    throw new NoSuchElementException();
                }
                return element(heap[next++]);
            }
        };
    }

    // ------------------------------------------------------------------ heap order

    @SuppressWarnings("unchecked")
    private T element(int slot) {
        return (T) slots[slot];
    }

    private void removeAt(int position) {
        int slot = heap[position];
        T removed = element(slot);
        int last = --size;
        if (position != last && longPriority != null) {
            refillHoleByKey(position, last);
        } else if (position != last) {
            int movedSlot = heap[last];
            heap[position] = movedSlot;
            positionOfSlot[movedSlot] = position;
            if (longPriority != null) {
                keys[position] = keys[last];
            }
            if (siftDown(position) == position) {
                siftUp(position);
            }
        }
        slots[slot] = null;
        positionOfSlot[slot] = -1;
        freeSlots[freeCount++] = slot;
        removed.setInternalIndex(HeapPriorityQueueElement.NOT_CONTAINED);
    }

    private void grow(int capacity) {
        slots = Arrays.copyOf(slots, capacity);
        positionOfSlot = Arrays.copyOf(positionOfSlot, capacity);
        freeSlots = Arrays.copyOf(freeSlots, capacity);
        heap = Arrays.copyOf(heap, capacity);
        if (longPriority != null) {
            keys = Arrays.copyOf(keys, capacity);
        }
    }

    /** Moves the entry at {@code position} up while it is smaller than its parent; returns where it ended. */
    private int siftUp(int position) {
        return longPriority != null ? siftUpByKey(position) : siftUpByComparator(position);
    }

    /** Moves the entry at {@code position} down while a child is smaller; returns where it ended. */
    private int siftDown(int position) {
        return longPriority != null ? siftDownByKey(position) : siftDownByComparator(position);
    }

    /**
     * Fills the hole at {@code position} with the entry at {@code last} (Floyd's method): the hole first
     * sinks to a leaf along the smaller children, one comparison per level, then the moved entry rises
     * from there. The last entry of a timer heap is usually among the largest, so it rises a level or
     * two; the textbook sift-down would compare it with both children at every level instead.
     */
    private void refillHoleByKey(int position, int last) {
        int[] h = heap;
        long[] k = keys;
        int[] where = positionOfSlot;
        int hole = position;
        int child;
        while ((child = 2 * hole + 1) < last) {
            int right = child + 1;
            if (right < last && k[right] < k[child]) {
                child = right;
            }
            int childSlot = h[child];
            h[hole] = childSlot;
            k[hole] = k[child];
            where[childSlot] = hole;
            hole = child;
        }
        int movedSlot = h[last];
        h[hole] = movedSlot;
        k[hole] = k[last];
        where[movedSlot] = hole;
        siftUpByKey(hole);
    }

    private int siftUpByKey(int position) {
        int[] h = heap;
        long[] k = keys;
        int[] where = positionOfSlot;
        int slot = h[position];
        long key = k[position];
        while (position > 0) {
            int parent = (position - 1) >>> 1;
            long parentKey = k[parent];
            if (key >= parentKey) {
                break;
            }
            int parentSlot = h[parent];
            h[position] = parentSlot;
            k[position] = parentKey;
            where[parentSlot] = position;
            position = parent;
        }
        h[position] = slot;
        k[position] = key;
        where[slot] = position;
        return position;
    }

    private int siftDownByKey(int position) {
        int[] h = heap;
        long[] k = keys;
        int[] where = positionOfSlot;
        int n = size;
        int slot = h[position];
        long key = k[position];
        while (true) {
            int child = 2 * position + 1;
            if (child >= n) {
                break;
            }
            long childKey = k[child];
            int right = child + 1;
            if (right < n && k[right] < childKey) {
                child = right;
                childKey = k[right];
            }
            if (childKey >= key) {
                break;
            }
            int childSlot = h[child];
            h[position] = childSlot;
            k[position] = childKey;
            where[childSlot] = position;
            position = child;
        }
        h[position] = slot;
        k[position] = key;
        where[slot] = position;
        return position;
    }

    private int siftUpByComparator(int position) {
        int[] h = heap;
        int slot = h[position];
        T element = element(slot);
        while (position > 0) {
            int parent = (position - 1) >>> 1;
            int parentSlot = h[parent];
            if (comparator.comparePriority(element, element(parentSlot)) >= 0) {
                break;
            }
            h[position] = parentSlot;
            positionOfSlot[parentSlot] = position;
            position = parent;
        }
        h[position] = slot;
        positionOfSlot[slot] = position;
        return position;
    }

    private int siftDownByComparator(int position) {
        int[] h = heap;
        int n = size;
        int slot = h[position];
        T element = element(slot);
        while (true) {
            int child = 2 * position + 1;
            if (child >= n) {
                break;
            }
            int right = child + 1;
            if (right < n && comparator.comparePriority(element(h[right]), element(h[child])) < 0) {
                child = right;
            }
            int childSlot = h[child];
            if (comparator.comparePriority(element(childSlot), element) >= 0) {
                break;
            }
            h[position] = childSlot;
            positionOfSlot[childSlot] = position;
            position = child;
        }
        h[position] = slot;
        positionOfSlot[slot] = position;
        return position;
    }
}
