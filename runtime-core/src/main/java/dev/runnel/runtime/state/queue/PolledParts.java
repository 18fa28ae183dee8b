package dev.runnel.runtime.state.queue;

/**
 * What {@link KeyGroupedInternalPriorityQueue#pollUpTo} took from the head of a queue of elements that are
 * their priority and two parts (timers: timestamp, key, namespace), handed over as those parts and the key
 * group instead of as an element, so that a queue keeping its elements as parts assembles none.
 *
 * <p>Owned and reused by one caller (a timer service); each poll overwrites it. Task thread only.
 */
public final class PolledParts {

    private long priority;
    private Object firstPart;
    private Object secondPart;
    private int keyGroup = -1;

    /** Sets all four at once; {@code keyGroup} negative when the queue does not know it. */
    public void set(long priority, Object firstPart, Object secondPart, int keyGroup) {
        this.priority = priority;
        this.firstPart = firstPart;
        this.secondPart = secondPart;
        this.keyGroup = keyGroup;
    }

    /** Lets go of the parts, so that a polled element's key and namespace do not stay reachable from here. */
    public void clear() {
        firstPart = null;
        secondPart = null;
    }

    public long priority() {
        return priority;
    }

    /** The first part (a timer's key); never null after a successful poll. */
    public Object firstPart() {
        return firstPart;
    }

    /** The second part (a timer's namespace); never null after a successful poll. */
    public Object secondPart() {
        return secondPart;
    }

    /** The key group of the polled element; negative when the queue does not know it. */
    public int keyGroup() {
        return keyGroup;
    }
}
