package dev.runnel.runtime.state.queue;

/**
 * A {@link LongPriorityComparator} for elements that are nothing but their priority and two parts,
 * as a timer is its timestamp, key and namespace. A queue that groups elements of one priority may
 * then keep the two parts of each, and no element object, and assemble an element again when it is
 * taken out: a pending timer then costs the queue two references rather than an object of its own
 * that lives, and is copied by every young collection, until the timer fires.
 *
 * <p>Contract: {@code assemble(priorityOf(e), firstPart(e), secondPart(e))} equals {@code e} and has
 * its hash code, which {@link #hashOf} gives from the parts alone; the parts are never null. Stateless and
 * thread-safe.
 *
 * @param <T> the element type
 */
public interface PartedLongPriority<T> extends LongPriorityComparator<T> {

    /** The element's first part (a timer's key). */
    Object firstPart(T element);

    /** The element's second part (a timer's namespace). */
    Object secondPart(T element);

    /** A new element of this priority and these parts. */
    T assemble(long priority, Object firstPart, Object secondPart);

    /** The hash code {@code assemble(priority, firstPart, secondPart)} would have, without making it. */
    int hashOf(long priority, Object firstPart, Object secondPart);
}
