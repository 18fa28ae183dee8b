package dev.runnel.runtime.state.queue;

/**
 * A {@link PriorityComparator} whose order is that of one {@code long} per element (a timer's
 * timestamp). Queues that know this keep the longs next to the elements and compare them without
 * touching the elements — on a large timer heap that saves a cache miss per comparison.
 */
@FunctionalInterface
public interface LongPriorityComparator<T> extends PriorityComparator<T> {

    /** The element's priority; smaller comes first. */
    long priorityOf(T element);

    @Override
    default int comparePriority(T left, T right) {
        return Long.compare(priorityOf(left), priorityOf(right));
    }
}
