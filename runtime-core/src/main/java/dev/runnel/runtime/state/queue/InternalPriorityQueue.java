package dev.runnel.runtime.state.queue;

import java.util.Collection;
import java.util.Iterator;

/**
 * A priority queue of timers (or other elements) that a state backend keeps, on the heap or in
 * RocksDB. Set semantics: adding an element equal to one already queued changes nothing.
 *
 * <p>{@link #add} and {@link #remove} report whether the head (smallest element) changed, so the
 * timer service re-registers its next wake-up only when it has to. Task thread only.
 *
 * @param <T> the element type
 */
public interface InternalPriorityQueue<T> {

    /** Removes and returns the smallest element, or null if empty. */
    T poll();

    /** The smallest element, or null if empty. */
    T peek();

    /** Adds {@code element} unless an equal one is queued; true if the head changed. */
    boolean add(T element);

    /** Removes the element equal to {@code element} if queued; true if the head changed. */
    boolean remove(T element);

    boolean isEmpty();

    int size();

    /** Adds every element of {@code elements}, one {@link #add} each. */
    default void addAll(Collection<? extends T> elements) {
        for (T element : elements) {
            add(element);
        }
    }

    /** All elements, in no particular order; the queue must not change while iterating. */
    Iterator<T> iterator();
}
