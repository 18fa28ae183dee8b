package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import java.util.Arrays;

/**
 * The deduplication index of a {@link HeapPriorityQueueSet}: an open-addressing hash table from an
 * element (by {@code equals}) to the heap slot that holds the queued instance. It stores slot numbers,
 * not references: the element itself lives once, in its heap slot.
 *
 * <p>Why ints: a timer heap adds and removes an element per record. A table of references would store
 * each new (young) element at a random position of a long-lived array — under G1 a write barrier and a
 * freshly dirtied card for concurrent refinement to scan, per add. Probing compares the int hashes and
 * slot numbers; an element is loaded only when its hash matches. 0 marks an empty slot of the table.
 *
 * <p>Task thread only.
 */
final class SlotIndex<T extends HeapPriorityQueueElement> {

    private static final int MIN_CAPACITY = 16;

    private final HeapPriorityQueue<T> heap;
    private int[] hashes = new int[MIN_CAPACITY];
    private int[] slots = new int[MIN_CAPACITY];
    private int mask = MIN_CAPACITY - 1;
    private int size;
    private int resizeAt = MIN_CAPACITY / 2;

    SlotIndex(HeapPriorityQueue<T> heap) {
        this.heap = heap;
    }

    /** The hash this index uses for {@code element}; never 0. */
    static int hashOf(Object element) {
        return spread(element.hashCode());
    }

    /** The hash this index uses for an element whose {@code hashCode()} is {@code hashCode}; never 0. */
    static int spread(int hashCode) {
        int h = hashCode * 0x9E3779B9;
        h ^= h >>> 16;
        return h == 0 ? 1 : h;
    }

    int size() {
        return size;
    }

    /** The queued element equal to {@code element}, or null. */
    T get(T element, int hash) {
        int i = find(element, hash);
        return i >= 0 ? heap.elementInSlot(slots[i]) : null;
    }

    /** Records that {@code slot} holds an element with {@code hash} (which must not be indexed yet). */
    void add(int hash, int slot) {
        if (size + 1 >= resizeAt) {
            grow();
        }
        int i = hash & mask;
        while (hashes[i] != 0) {
            i = (i + 1) & mask;
        }
        hashes[i] = hash;
        slots[i] = slot;
        size++;
    }

    /** Forgets the element in {@code slot}, whose hash is {@code hash}; false if it was not indexed. */
    boolean removeSlot(int hash, int slot) {
        int i = hash & mask;
        int slotHash;
        while ((slotHash = hashes[i]) != 0) {
            if (slotHash == hash && slots[i] == slot) {
                deleteAt(i);
                return true;
            }
            i = (i + 1) & mask;
        }
        return false;
    }

    void clear() {
        Arrays.fill(hashes, 0);
        size = 0;
    }

    private int find(T element, int hash) {
        int i = hash & mask;
        int slotHash;
        while ((slotHash = hashes[i]) != 0) {
            if (slotHash == hash && heap.elementInSlot(slots[i]).equals(element)) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** Empties position {@code hole}, moving back later entries of the run whose home allows it. */
    private void deleteAt(int hole) {
        size--;
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            int candidate = hashes[i];
            if (candidate == 0) {
                break;
            }
            int home = candidate & mask;
            if (LinearProbing.canMoveBack(home, hole, i)) {
                hashes[hole] = candidate;
                slots[hole] = slots[i];
                hole = i;
            }
        }
        hashes[hole] = 0;
    }

    private void grow() {
        int[] oldHashes = hashes;
        int[] oldSlots = slots;
        int capacity = oldHashes.length * 2;
        hashes = new int[capacity];
        slots = new int[capacity];
        mask = capacity - 1;
        resizeAt = capacity / 2;
        for (int j = 0; j < oldHashes.length; j++) {
            if (oldHashes[j] != 0) {
                int i = oldHashes[j] & mask;
                while (hashes[i] != 0) {
                    i = (i + 1) & mask;
                }
                hashes[i] = oldHashes[j];
                slots[i] = oldSlots[j];
            }
        }
    }
}
