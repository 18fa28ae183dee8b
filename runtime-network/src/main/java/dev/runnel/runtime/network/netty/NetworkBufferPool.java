package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.NettyShuffleEnvironmentOptions;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The TaskManager's bounded pool of network buffers, all of one size, allocated once. Every sending and
 * receiving channel takes its buffers from here through a {@link LocalBufferPool}, which takes a guaranteed
 * minimum when it is created, so no task can starve another. Tests check that {@link #availableBuffers()}
 * returns to {@link #totalBuffers()} after every job, failed or not. Thread-safe.
 */
public final class NetworkBufferPool {

    private final int segmentSize;
    private final int totalBuffers;
    private final ConcurrentLinkedQueue<ByteBuf> free = new ConcurrentLinkedQueue<>();
    private final AtomicInteger available = new AtomicInteger();
    private final ConcurrentLinkedQueue<Runnable> waiters = new ConcurrentLinkedQueue<>();

    public NetworkBufferPool(int totalBuffers, int segmentSize) {
        if (totalBuffers < 1 || segmentSize < 256) {
            throw new IllegalArgumentException("a network buffer pool needs at least one buffer of at least 256 bytes,"
                    + " got " + totalBuffers + " buffers of " + segmentSize + " bytes");
        }
        this.segmentSize = segmentSize;
        this.totalBuffers = totalBuffers;
        for (int i = 0; i < totalBuffers; i++) {
            free.add(Unpooled.buffer(segmentSize, segmentSize));
        }
        available.set(totalBuffers);
    }

    public int segmentSize() {
        return segmentSize;
    }

    public int totalBuffers() {
        return totalBuffers;
    }

    /** Buffers in the pool now, not held by any local pool or channel. */
    public int availableBuffers() {
        return available.get();
    }

    /**
     * Takes {@code count} buffers at once for a local pool's guaranteed minimum; fails naming the shortfall
     * and the option to raise when the pool does not have them.
     */
    List<ByteBuf> take(int count, String owner) {
        int now;
        do {
            now = available.get();
            if (now < count) {
                throw new IllegalStateException("Insufficient network buffers for " + owner + ": it needs " + count
                        + " and " + now + " of " + totalBuffers + " are free. Raise "
                        + NettyShuffleEnvironmentOptions.NETWORK_NUM_BUFFERS.key() + " or lower the parallelism.");
            }
        } while (!available.compareAndSet(now, now - count));
        List<ByteBuf> buffers = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            buffers.add(free.poll());
        }
        return buffers;
    }

    /** One buffer, or null when none is free. */
    ByteBuf requestOne() {
        while (true) {
            int now = available.get();
            if (now <= 0) {
                return null;
            }
            if (available.compareAndSet(now, now - 1)) {
                return free.poll();
            }
        }
    }

    /** Returns a buffer and tells one waiter. */
    void recycle(ByteBuf buffer) {
        buffer.clear();
        free.add(buffer);
        available.incrementAndGet();
        Runnable waiter = waiters.poll();
        if (waiter != null) {
            waiter.run();
        }
    }

    /** Runs {@code waiter} once, the next time a buffer comes back (or now, if one is free). */
    void notifyWhenAvailable(Runnable waiter) {
        waiters.add(waiter);
        if (available.get() > 0 && waiters.remove(waiter)) {
            waiter.run();
        }
    }
}
