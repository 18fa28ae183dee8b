package dev.runnel.runtime.state.queue;

/**
 * An element that remembers its own position in an array-backed heap, so it can be removed in
 * O(log n) without searching. An element may sit in at most one heap at a time.
 */
public interface HeapPriorityQueueElement {

    /** The index of an element that is in no heap. */
    int NOT_CONTAINED = Integer.MIN_VALUE;

    int getInternalIndex();

    void setInternalIndex(int newIndex);
}
