package dev.runnel.streaming.api.operators;

import dev.runnel.streaming.api.functions.source.SourceFunction.SourceContext;
import dev.runnel.streaming.api.watermark.Watermark;
import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;

/**
 * The {@link SourceContext} of a legacy source function: a bounded queue between the source thread,
 * which puts records, watermarks and idleness into it, and the task thread, which takes them out in
 * batches and emits them downstream. Operators therefore only ever run on the task thread.
 *
 * <p>The queue is guarded by the checkpoint lock ({@link #getCheckpointLock()}), a plain monitor:
 * the task thread takes it to move records out, and a checkpoint would take it to drain the queue and
 * snapshot the function with nothing in between. A source thread that finds the queue full waits on
 * the lock, which releases it (even when the function holds it around {@code collect}), so the task
 * thread can make room; that is why a function must collect before it updates its state.
 *
 * <p>Once {@linkplain #shutDown() shut down} (cancellation), puts are dropped and waiting puts return.
 */
final class SourceFunctionHandoff<T> implements SourceContext<T> {

    /** A record as the source emitted it. */
    record Element<T>(T value, long timestamp, boolean hasTimestamp) {}

    /** The source declared itself idle. */
    static final Object IDLE = new Object() {
        @Override
        public String toString() {
            return "IDLE";
        }
    };

    private final Object lock = new Object();
    private final ArrayDeque<Object> queue = new ArrayDeque<>();
    private final int capacity;
    private CompletableFuture<Void> available = new CompletableFuture<>();
    private boolean ended;
    private boolean shutDown;
    private Throwable failure;

    SourceFunctionHandoff(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive, was " + capacity);
        }
        this.capacity = capacity;
    }

    // ------------------------------------------------------------------ source thread

    @Override
    public void collect(T element) {
        put(new Element<>(element, Long.MIN_VALUE, false));
    }

    @Override
    public void collectWithTimestamp(T element, long timestamp) {
        put(new Element<>(element, timestamp, true));
    }

    @Override
    public void emitWatermark(Watermark mark) {
        put(mark);
    }

    @Override
    public void markAsTemporarilyIdle() {
        put(IDLE);
    }

    @Override
    public Object getCheckpointLock() {
        return lock;
    }

    @Override
    public void close() {}

    private void put(Object item) {
        synchronized (lock) {
            while (queue.size() >= capacity && !shutDown) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    if (shutDown) {
                        return;
                    }
                    throw new IllegalStateException("The source thread was interrupted while waiting to hand a "
                            + "record to its task; the record is lost.", e);
                }
            }
            if (shutDown) {
                return;
            }
            queue.add(item);
            available.complete(null);
        }
    }

    /** The function's run() returned ({@code failure} null) or threw. */
    void end(Throwable failure) {
        synchronized (lock) {
            this.ended = true;
            this.failure = failure;
            available.complete(null);
        }
    }

    // ------------------------------------------------------------------ task thread

    /**
     * Moves everything queued into {@code into} and wakes a waiting source thread.
     *
     * @return whether the input has ended: run() returned and nothing is left
     */
    boolean takeAll(Queue<Object> into) {
        synchronized (lock) {
            into.addAll(queue);
            queue.clear();
            lock.notifyAll();
            if (into.isEmpty() && !ended && available.isDone()) {
                available = new CompletableFuture<>();
            }
            return ended && into.isEmpty();
        }
    }

    /** Whether run() has returned or thrown. */
    boolean hasEnded() {
        synchronized (lock) {
            return ended;
        }
    }

    /** The failure run() ended with, or null. */
    Throwable failure() {
        synchronized (lock) {
            return failure;
        }
    }

    /** Completes when there is something to take or run() ended. */
    CompletableFuture<Void> available() {
        synchronized (lock) {
            return available;
        }
    }

    /** Cancellation: drops what is queued and from now on every put; wakes a waiting source thread. */
    void shutDown() {
        synchronized (lock) {
            shutDown = true;
            queue.clear();
            lock.notifyAll();
        }
    }
}
