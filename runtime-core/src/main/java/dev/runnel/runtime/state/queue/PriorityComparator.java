package dev.runnel.runtime.state.queue;

/**
 * Orders the elements of a priority queue: negative when {@code left} comes first. Only priority is
 * compared (e.g. a timer's timestamp); equality for deduplication is the element's own
 * {@code equals}.
 */
@FunctionalInterface
public interface PriorityComparator<T> {

    int comparePriority(T left, T right);
}
