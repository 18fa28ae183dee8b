package dev.runnel.runtime.network.local;

/**
 * A bounded, lock-free, single-producer single-consumer ring of references.
 *
 * <p>Exactly one thread may call {@link #offer(Object)} and exactly one (other) thread
 * {@link #poll()}. Publication is a volatile write of the producer index after a plain write of the
 * slot, so the consumer that reads the index also sees the element. Both indices are volatile
 * writes, which also gives the store-load ordering the wake-up protocol of
 * {@link dev.runnel.runtime.io.TaskWaker} relies on. Indices sit on their own cache lines so the two
 * threads do not slow each other down through false sharing.
 */
final class SpscRing extends SpscRingTail {

    private final Object[] slots;
    private final int mask;
    private final int capacity;

    SpscRing(int capacity) {
        if (capacity < 1 || capacity > (1 << 20)) {
            throw new IllegalArgumentException("ring capacity must be in [1, 2^20], was " + capacity);
        }
        int size = 1;
        while (size < capacity) {
            size <<= 1;
        }
        this.slots = new Object[size];
        this.mask = size - 1;
        this.capacity = capacity;
    }

    int capacity() {
        return capacity;
    }

    /** Producer only. Adds {@code element}; false when the ring is full. */
    boolean offer(Object element) {
        long t = tail;
        if (t - producerCachedHead >= capacity) {
            producerCachedHead = head;
            if (t - producerCachedHead >= capacity) {
                return false;
            }
        }
        slots[(int) t & mask] = element;
        tail = t + 1;
        return true;
    }

    /**
     * Producer only. Whether fewer than {@code limit} elements are queued; reads the consumer's index only
     * when the cached one says the ring might be at the limit.
     */
    boolean hasFewerThan(int limit) {
        long t = tail;
        if (t - producerCachedHead < limit) {
            return true;
        }
        producerCachedHead = head;
        return t - producerCachedHead < limit;
    }

    /** Consumer only. The oldest element, or null when empty. */
    Object poll() {
        long h = head;
        if (h >= consumerCachedTail) {
            consumerCachedTail = tail;
            if (h >= consumerCachedTail) {
                return null;
            }
        }
        int index = (int) h & mask;
        Object element = slots[index];
        slots[index] = null;
        head = h + 1;
        return element;
    }

    /**
     * Consumer only. Whether at most {@code limit} elements are queued. Reads the producer's index only
     * when its cached copy says so, so a consumer that asks after every poll of a fuller ring pays nothing.
     */
    boolean hasAtMostForConsumer(int limit) {
        long h = head;
        if (consumerCachedTail - h > limit) {
            return false; // the producer's index only grows: the real count is larger still
        }
        consumerCachedTail = tail;
        return consumerCachedTail - h <= limit;
    }

    /** Consumer only. Whether {@link #poll()} would return an element now. */
    boolean isEmptyForConsumer() {
        return hasAtMostForConsumer(0);
    }

    /** An estimate of the elements in the ring; exact only when both sides are quiet. */
    int size() {
        return (int) (tail - head);
    }
}

/** Cache-line padding before the consumer's index. */
abstract class SpscRingPad0 {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

/** The consumer's index and its cached copy of the producer's. */
abstract class SpscRingHead extends SpscRingPad0 {
    volatile long head;
    long consumerCachedTail;
}

/** Cache-line padding between the two indices. */
abstract class SpscRingPad1 extends SpscRingHead {
    long p10, p11, p12, p13, p14, p15, p16, p17;
}

/** The producer's index and its cached copy of the consumer's. */
abstract class SpscRingTail extends SpscRingPad1 {
    volatile long tail;
    long producerCachedHead;
    long p20, p21, p22, p23, p24, p25, p26;
}
