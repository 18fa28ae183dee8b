package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.InternalPriorityQueue;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PriorityComparator;
import java.util.Arrays;
import java.util.Collection;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;

/**
 * A binary min-heap in an array whose elements know their own index
 * ({@link HeapPriorityQueueElement}), so that removing any element, or re-sorting one whose priority
 * changed, costs O(log n) without a search.
 *
 * <p>Contract: an element may be in at most one heap at a time; adding an element that is already
 * in a heap fails. Unlike the {@link InternalPriorityQueue} contract this queue does not deduplicate
 * equal elements, and {@link #remove} removes the given instance (it finds it by its index); use
 * {@link HeapPriorityQueueSet} for set semantics. {@link #add} and {@link #remove} return whether
 * the head changed. Elements of equal priority come out in no particular order.
 *
 * <p>Task thread only; no locks. Null elements are rejected.
 *
 * @param <T> the element type
 */
public final class HeapPriorityQueue<T extends HeapPriorityQueueElement> implements InternalPriorityQueue<T> {

    private static final HeapPriorityQueueElement[] EMPTY = new HeapPriorityQueueElement[0];

    private static final long[] NO_KEYS = new long[0];

    private final PriorityComparator<T> comparator;
    /** Non-null when the order is that of a long per element: then {@link #keys} holds those longs. */
    private final LongPriorityComparator<T> longPriority;
    private HeapPriorityQueueElement[] queue;
    /** The priority of the element at each index (only with {@link #longPriority}). */
    private long[] keys;
    private int size;

    /**
     * @param comparator orders the elements; the smallest is the head
     * @param initialCapacity how many elements fit before the array grows (0 allocates on first add)
     */
    public HeapPriorityQueue(PriorityComparator<T> comparator, int initialCapacity) {
        this.comparator = Objects.requireNonNull(comparator, "comparator");
        if (initialCapacity < 0) {
            throw new IllegalArgumentException("initialCapacity must be >= 0, was " + initialCapacity);
        }
        this.queue = initialCapacity == 0 ? EMPTY : new HeapPriorityQueueElement[initialCapacity];
        this.longPriority = comparator instanceof LongPriorityComparator<T> lp ? lp : null;
        this.keys = longPriority == null ? NO_KEYS : new long[initialCapacity];
    }

    @Override
    @SuppressWarnings("unchecked")
    public T peek() {
        return size == 0 ? null : (T) queue[0];
    }

    @Override
    public T poll() {
        if (size == 0) {
            return null;
        }
        T head = peek();
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
        if (size == queue.length) {
            int capacity = Math.max(8, size + (size >>> 1));
            queue = Arrays.copyOf(queue, capacity);
            if (longPriority != null) {
                keys = Arrays.copyOf(keys, capacity);
            }
        }
        int at = size++;
        queue[at] = element;
        if (longPriority != null) {
            keys[at] = longPriority.priorityOf(element);
        }
        element.setInternalIndex(at);
        return siftUp(at) == 0;
    }

    /** Removes this very instance if it is in this heap; true if it was the head. */
    @Override
    public boolean remove(T element) {
        int index = element.getInternalIndex();
        if (index < 0 || index >= size || queue[index] != element) {
            return false;
        }
        removeAt(index);
        return index == 0;
    }

    /**
     * Restores the heap order after the priority of {@code element}, which is in this heap, changed.
     *
     * @return the element's new index (0 if it is now the head)
     */
    public int adjustModifiedElement(T element) {
        int index = element.getInternalIndex();
        if (index < 0 || index >= size || queue[index] != element) {
            throw new IllegalArgumentException("element " + element + " is not in this heap");
        }
        if (longPriority != null) {
            keys[index] = longPriority.priorityOf(element);
        }
        int up = siftUp(index);
        return up != index ? up : siftDown(index);
    }

    /** True if {@code element} is this very instance at the head. */
    public boolean isHead(T element) {
        return size > 0 && queue[0] == element;
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public int size() {
        return size;
    }

    @Override
    public void addAll(Collection<? extends T> elements) {
        for (T element : elements) {
            add(element);
        }
    }

    /** Removes every element (marking each as in no heap) and keeps the array. */
    public void clear() {
        for (int i = 0; i < size; i++) {
            queue[i].setInternalIndex(HeapPriorityQueueElement.NOT_CONTAINED);
            queue[i] = null;
        }
        size = 0;
    }

    /** The element at {@code index} of the heap array, for iteration without an iterator. */
    @SuppressWarnings("unchecked")
    public T elementAt(int index) {
        Objects.checkIndex(index, size);
        return (T) queue[index];
    }

    /** The elements in heap-array order; does not support removal, and the heap must not change meanwhile. */
    @Override
    public Iterator<T> iterator() {
        return new Iterator<>() {
            private int next;

            @Override
            public boolean hasNext() {
                return next < size;
            }

            @Override
            @SuppressWarnings("unchecked")
            public T next() {
                if (next >= size) {
                    throw new NoSuchElementException();
                }
                return (T) queue[next++];
            }
        };
    }

    // ------------------------------------------------------------------ heap order

    private void removeAt(int index) {
        HeapPriorityQueueElement removed = queue[index];
        int last = --size;
        if (index != last) {
            HeapPriorityQueueElement moved = queue[last];
            queue[last] = null;
            queue[index] = moved;
            if (longPriority != null) {
                keys[index] = keys[last];
            }
            moved.setInternalIndex(index);
            if (siftDown(index) == index) {
                siftUp(index);
            }
        } else {
            queue[last] = null;
        }
        removed.setInternalIndex(HeapPriorityQueueElement.NOT_CONTAINED);
    }

    /** Moves the element at {@code index} up while it is smaller than its parent; returns where it ended. */
    private int siftUp(int index) {
        return longPriority != null ? siftUpByKey(index) : siftUpByComparator(index);
    }

    /** Moves the element at {@code index} down while a child is smaller; returns where it ended. */
    private int siftDown(int index) {
        return longPriority != null ? siftDownByKey(index) : siftDownByComparator(index);
    }

    @SuppressWarnings("unchecked")
    private int siftUpByComparator(int index) {
        HeapPriorityQueueElement[] heap = queue;
        T element = (T) heap[index];
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            T parentElement = (T) heap[parent];
            if (comparator.comparePriority(element, parentElement) >= 0) {
                break;
            }
            heap[index] = parentElement;
            parentElement.setInternalIndex(index);
            index = parent;
        }
        heap[index] = element;
        element.setInternalIndex(index);
        return index;
    }

    @SuppressWarnings("unchecked")
    private int siftDownByComparator(int index) {
        HeapPriorityQueueElement[] heap = queue;
        int n = size;
        T element = (T) heap[index];
        while (true) {
            int child = 2 * index + 1;
            if (child >= n) {
                break;
            }
            T childElement = (T) heap[child];
            int right = child + 1;
            if (right < n && comparator.comparePriority((T) heap[right], childElement) < 0) {
                child = right;
                childElement = (T) heap[right];
            }
            if (comparator.comparePriority(childElement, element) >= 0) {
                break;
            }
            heap[index] = childElement;
            childElement.setInternalIndex(index);
            index = child;
        }
        heap[index] = element;
        element.setInternalIndex(index);
        return index;
    }

    /** {@link #siftUpByComparator} comparing the cached keys: elements are only touched when they move. */
    private int siftUpByKey(int index) {
        HeapPriorityQueueElement[] heap = queue;
        long[] k = keys;
        HeapPriorityQueueElement element = heap[index];
        long key = k[index];
        while (index > 0) {
            int parent = (index - 1) >>> 1;
            long parentKey = k[parent];
            if (key >= parentKey) {
                break;
            }
            HeapPriorityQueueElement parentElement = heap[parent];
            heap[index] = parentElement;
            k[index] = parentKey;
            parentElement.setInternalIndex(index);
            index = parent;
        }
        heap[index] = element;
        k[index] = key;
        element.setInternalIndex(index);
        return index;
    }

    /** {@link #siftDownByComparator} comparing the cached keys. */
    private int siftDownByKey(int index) {
        HeapPriorityQueueElement[] heap = queue;
        long[] k = keys;
        int n = size;
        HeapPriorityQueueElement element = heap[index];
        long key = k[index];
        while (true) {
            int child = 2 * index + 1;
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
            HeapPriorityQueueElement childElement = heap[child];
            heap[index] = childElement;
            k[index] = childKey;
            childElement.setInternalIndex(index);
            index = child;
        }
        heap[index] = element;
        k[index] = key;
        element.setInternalIndex(index);
        return index;
    }
}
