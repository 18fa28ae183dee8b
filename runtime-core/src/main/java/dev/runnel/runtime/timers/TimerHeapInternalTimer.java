package dev.runnel.runtime.timers;

import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.PartedLongPriority;
import java.util.Objects;

/**
 * The timer object kept in priority queues. Equal (for deduplication) when timestamp, key and
 * namespace are equal; ordered by timestamp. Carries its heap index for O(log n) removal.
 *
 * <p>Not thread-safe; owned by one task's timer queue.
 */
public final class TimerHeapInternalTimer<K, N> implements InternalTimer<K, N>, HeapPriorityQueueElement {

    private final long timestamp;
    private final K key;
    private final N namespace;
    /** Computed once: timers are hashed on every add, delete and poll of a deduplicating queue. */
    private final int hash;
    private int heapIndex = NOT_CONTAINED;

    public TimerHeapInternalTimer(long timestamp, K key, N namespace) {
        this.timestamp = timestamp;
        this.key = Objects.requireNonNull(key, "timer key");
        this.namespace = Objects.requireNonNull(namespace, "timer namespace");
        this.hash = hashOf(timestamp, key, namespace);
    }

    private static int hashOf(long timestamp, Object key, Object namespace) {
        int h = Long.hashCode(timestamp);
        h = 31 * h + key.hashCode();
        return 31 * h + namespace.hashCode();
    }

    @Override
    public long getTimestamp() {
        return timestamp;
    }

    @Override
    public K getKey() {
        return key;
    }

    @Override
    public N getNamespace() {
        return namespace;
    }

    @Override
    public int getInternalIndex() {
        return heapIndex;
    }

    @Override
    public void setInternalIndex(int newIndex) {
        this.heapIndex = newIndex;
    }

    /**
     * Orders timers by timestamp, and tells a queue that a timer is its timestamp, key and namespace, so that
     * a heap queue can keep pending timers of one timestamp as key and namespace references alone.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    public static <K, N> PartedLongPriority<TimerHeapInternalTimer<K, N>> byTimestamp() {
        return (PartedLongPriority) BY_TIMESTAMP;
    }

    private static final PartedLongPriority<TimerHeapInternalTimer<Object, Object>> BY_TIMESTAMP =
            new PartedLongPriority<>() {
                @Override
                public long priorityOf(TimerHeapInternalTimer<Object, Object> timer) {
                    return timer.timestamp;
                }

                @Override
                public Object firstPart(TimerHeapInternalTimer<Object, Object> timer) {
                    return timer.key;
                }

                @Override
                public Object secondPart(TimerHeapInternalTimer<Object, Object> timer) {
                    return timer.namespace;
                }

                @Override
                public TimerHeapInternalTimer<Object, Object> assemble(long timestamp, Object key, Object namespace) {
                    return new TimerHeapInternalTimer<>(timestamp, key, namespace);
                }

                @Override
                public int hashOf(long timestamp, Object key, Object namespace) {
                    return TimerHeapInternalTimer.hashOf(timestamp, key, namespace);
                }
            };

    /** Orders timers by timestamp only. */
    public static int compareByTimestamp(InternalTimer<?, ?> left, InternalTimer<?, ?> right) {
        return Long.compare(left.getTimestamp(), right.getTimestamp());
    }

    @Override
    public boolean equals(Object o) {
        return this == o
                || (o instanceof TimerHeapInternalTimer<?, ?> other
                        && timestamp == other.timestamp
                        && hash == other.hash
                        && key.equals(other.key)
                        && namespace.equals(other.namespace));
    }

    @Override
    public int hashCode() {
        return hash;
    }

    @Override
    public String toString() {
        return "Timer{timestamp=" + timestamp + ", key=" + key + ", namespace=" + namespace + '}';
    }
}
