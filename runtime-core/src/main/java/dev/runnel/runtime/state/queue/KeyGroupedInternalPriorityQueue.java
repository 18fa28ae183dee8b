package dev.runnel.runtime.state.queue;

import java.util.Set;

/**
 * A priority queue whose elements belong to key groups, so that the elements of one key group can be
 * snapshotted and moved to another subtask on rescale.
 */
public interface KeyGroupedInternalPriorityQueue<T> extends InternalPriorityQueue<T> {

    /**
     * As {@link #add}, for an element whose key group the caller knows ({@code keyGroup}; negative means
     * unknown): a timer registered for the current key, whose key group the keyed state computed already.
     */
    default boolean add(T element, int keyGroup) {
        return add(element);
    }

    /**
     * As {@link #add(Object, int)} of {@code parts.assemble(priority, firstPart, secondPart)}, for a queue of
     * elements that are their priority and two parts (timers): a queue that keeps such elements as their parts
     * makes no element unless it has to keep one whole, so that registering a timer allocates nothing.
     */
    default boolean addParts(PartedLongPriority<T> parts, long priority, Object firstPart, Object secondPart,
            int keyGroup) {
        return add(parts.assemble(priority, firstPart, secondPart), keyGroup);
    }

    /** As {@link #remove}, for an element whose key group the caller knows ({@code keyGroup}; negative means unknown). */
    default boolean remove(T element, int keyGroup) {
        return remove(element);
    }

    /**
     * The key group of the element {@link #peek()} returns now, without hashing its key where the queue
     * knows it; negative when the queue is empty or does not know.
     */
    default int peekKeyGroup() {
        return -1;
    }

    /**
     * Takes the head out if its priority is at most {@code maxPriority} and puts its priority, parts and key
     * group into {@code into}, for a queue of elements that are their priority and two parts (timers firing
     * up to a watermark): a queue that keeps such elements as their parts assembles none. False, and
     * {@code into} unchanged, when the queue is empty or its head comes later.
     */
    default boolean pollUpTo(long maxPriority, PartedLongPriority<T> parts, PolledParts into) {
        T head = peek();
        if (head == null || parts.priorityOf(head) > maxPriority) {
            return false;
        }
        int keyGroup = peekKeyGroup();
        poll();
        into.set(parts.priorityOf(head), parts.firstPart(head), parts.secondPart(head), keyGroup);
        return true;
    }

    /** A snapshot of the elements of {@code keyGroupId} (a copy; later changes do not show). */
    Set<T> getSubsetForKeyGroup(int keyGroupId);
}
