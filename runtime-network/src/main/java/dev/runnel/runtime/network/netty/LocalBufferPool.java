package dev.runnel.runtime.network.netty;

import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;

/**
 * The buffers of one result partition or one input gate: a guaranteed minimum taken from the
 * {@link NetworkBufferPool} when it is created, and up to a maximum more borrowed while the pool has them.
 * Borrowed buffers go back to the pool as soon as they are recycled; the minimum stays until
 * {@link #destroy()}. Thread-safe (the task thread and the network thread both request and recycle).
 */
final class LocalBufferPool {

    private final NetworkBufferPool global;
    private final String owner;
    private final int guaranteed;
    private final int max;
    private final ArrayDeque<ByteBuf> free = new ArrayDeque<>();
    private int owned;
    private boolean destroyed;

    LocalBufferPool(NetworkBufferPool global, int guaranteed, int max, String owner) {
        this.global = global;
        this.owner = owner;
        this.guaranteed = guaranteed;
        this.max = Math.max(max, guaranteed);
        free.addAll(global.take(guaranteed, owner));
        owned = guaranteed;
    }

    /** A buffer, or null when this pool is at its maximum or neither it nor the global pool has one free. */
    synchronized ByteBuf request() {
        if (destroyed) {
            throw new IllegalStateException("the network buffers of " + owner + " were released");
        }
        ByteBuf buffer = free.poll();
        if (buffer == null && owned < max) {
            buffer = global.requestOne();
            if (buffer != null) {
                owned++;
            }
        }
        return buffer;
    }

    /** Whether {@link #request()} would probably succeed now. */
    synchronized boolean hasAvailable() {
        return !destroyed && (!free.isEmpty() || (owned < max && global.availableBuffers() > 0));
    }

    /** Whether this pool could borrow more but the TaskManager's pool has nothing to lend. */
    synchronized boolean isGloballyExhausted() {
        return free.isEmpty() && owned < max && global.availableBuffers() == 0;
    }

    /** Takes a buffer back: kept while this pool holds no more than its minimum, else returned to the pool. */
    void recycle(ByteBuf buffer) {
        synchronized (this) {
            if (!destroyed && owned <= guaranteed) {
                buffer.clear();
                free.add(buffer);
                return;
            }
            owned--;
        }
        global.recycle(buffer);
    }

    /** Runs {@code waiter} once a buffer may be free (from another thread). */
    void notifyWhenAvailable(Runnable waiter) {
        global.notifyWhenAvailable(waiter);
    }

    /** Gives every free buffer back; buffers still in use go back to the pool when they are recycled. */
    void destroy() {
        ArrayDeque<ByteBuf> toReturn;
        synchronized (this) {
            if (destroyed) {
                return;
            }
            destroyed = true;
            toReturn = new ArrayDeque<>(free);
            owned -= free.size();
            free.clear();
        }
        for (ByteBuf buffer : toReturn) {
            global.recycle(buffer);
        }
    }

    @Override
    public String toString() {
        return "buffers of " + owner;
    }
}
