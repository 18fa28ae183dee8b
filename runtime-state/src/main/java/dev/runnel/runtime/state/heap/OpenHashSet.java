package dev.runnel.runtime.state.heap;

import java.util.Arrays;

/**
 * A set of elements by {@code equals}, with open addressing and linear probing: lookups, inserts and
 * removals allocate nothing (unlike {@link java.util.HashMap}, which allocates a node per entry).
 * Removal shifts later entries of a probe run back, so no tombstones accumulate. Used to deduplicate
 * timers, where every record may add one and every firing removes one.
 *
 * <p>Not thread-safe. Null elements are not allowed.
 */
final class OpenHashSet<T> {

    private static final int MIN_CAPACITY = 16;

    private Object[] elements = new Object[MIN_CAPACITY];
    private int[] hashes = new int[MIN_CAPACITY];
    private int size;
    private int mask = MIN_CAPACITY - 1;
    private int resizeAt = MIN_CAPACITY / 2 + MIN_CAPACITY / 4;

    private static int mix(int hash) {
        int h = hash * 0x9E3779B9;
        return h ^ (h >>> 16);
    }

    int size() {
        return size;
    }

    /** The element equal to {@code element} already in the set, or null after adding {@code element}. */
    @SuppressWarnings("unchecked")
    T putIfAbsent(T element) {
        int hash = mix(element.hashCode());
        int i = hash & mask;
        Object existing;
        while ((existing = elements[i]) != null) {
            if (hashes[i] == hash && existing.equals(element)) {
                return (T) existing;
            }
            i = (i + 1) & mask;
        }
        elements[i] = element;
        hashes[i] = hash;
        if (++size >= resizeAt) {
            grow();
        }
        return null;
    }

    /** Whether an element equal to {@code element} is in the set. */
    boolean contains(T element) {
        return indexOf(element) >= 0;
    }

    /** Removes and returns the element equal to {@code element}, or null if there is none. */
    @SuppressWarnings("unchecked")
    T remove(T element) {
        int i = indexOf(element);
        if (i < 0) {
            return null;
        }
        T removed = (T) elements[i];
        deleteAt(i);
        return removed;
    }

    void clear() {
        Arrays.fill(elements, null);
        size = 0;
    }

    private int indexOf(T element) {
        int hash = mix(element.hashCode());
        int i = hash & mask;
        Object existing;
        while ((existing = elements[i]) != null) {
            if (hashes[i] == hash && existing.equals(element)) {
                return i;
            }
            i = (i + 1) & mask;
        }
        return -1;
    }

    /** Empties slot {@code hole}, moving back later entries of the run whose ideal slot allows it. */
    private void deleteAt(int hole) {
        size--;
        int i = hole;
        while (true) {
            i = (i + 1) & mask;
            Object candidate = elements[i];
            if (candidate == null) {
                break;
            }
            int ideal = hashes[i] & mask;
            // The candidate may move into the hole unless its ideal slot lies cyclically in (hole, i].
            boolean idealInRange = hole <= i ? (ideal > hole && ideal <= i) : (ideal > hole || ideal <= i);
            if (!idealInRange) {
                elements[hole] = candidate;
                hashes[hole] = hashes[i];
                hole = i;
            }
        }
        elements[hole] = null;
    }

    private void grow() {
        Object[] oldElements = elements;
        int[] oldHashes = hashes;
        int capacity = oldElements.length * 2;
        elements = new Object[capacity];
        hashes = new int[capacity];
        mask = capacity - 1;
        resizeAt = capacity / 2 + capacity / 4;
        for (int j = 0; j < oldElements.length; j++) {
            if (oldElements[j] != null) {
                int i = oldHashes[j] & mask;
                while (elements[i] != null) {
                    i = (i + 1) & mask;
                }
                elements[i] = oldElements[j];
                hashes[i] = oldHashes[j];
            }
        }
    }
}
