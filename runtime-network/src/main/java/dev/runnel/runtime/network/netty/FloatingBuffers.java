package dev.runnel.runtime.network.netty;

import io.netty.buffer.ByteBuf;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The receive buffers of one input gate: each remote channel's exclusive ones plus the floating ones the
 * gate lends to whichever channel announces a backlog. A channel that could not get what its backlog asks
 * for waits here, and the next floating buffer given back goes to it, so a sender never waits on stale credit
 * while another channel of the gate returns buffers. Thread-safe.
 */
final class FloatingBuffers {

    private final LocalBufferPool pool;
    private final ConcurrentLinkedQueue<RemoteInputChannel> waiting = new ConcurrentLinkedQueue<>();

    FloatingBuffers(LocalBufferPool pool) {
        this.pool = pool;
    }

    /** A buffer, or null when the gate has none to lend now. */
    ByteBuf request() {
        return pool.request();
    }

    /** Gives a buffer back and lets a waiting channel try again. */
    void recycle(ByteBuf buffer) {
        pool.recycle(buffer);
        RemoteInputChannel next = waiting.poll();
        if (next != null) {
            next.retryBorrowing();
        }
    }

    /** {@code channel} wants more than it got; it is told (once) when a buffer comes back. */
    void awaitBuffer(RemoteInputChannel channel) {
        if (!waiting.contains(channel)) {
            waiting.add(channel);
        }
        // A buffer given back while registering must not be missed.
        if (pool.hasAvailable() && waiting.remove(channel)) {
            channel.retryBorrowing();
        }
    }

    void forget(RemoteInputChannel channel) {
        waiting.remove(channel);
    }

    void destroy() {
        waiting.clear();
        pool.destroy();
    }
}
