package dev.runnel.runtime.network.netty;

import dev.runnel.runtime.shuffle.ChannelId;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * What a producer has filled for one remote channel and the network has not sent yet: full buffers and
 * events in order. The producer's task thread adds ({@link RemoteSubpartitionWriter}); the event loop of the
 * consumer's connection takes, when the consumer has granted credit ({@link ServerConnectionHandler}). Either
 * side may come first: a partition request can arrive before the producer is deployed, and the other way round.
 */
final class OutboundSubpartition {

    /**
     * One element of the queue: a data buffer (from {@link #pool}) or an event's bytes (not pooled); a
     * priority event goes ahead of the queue.
     */
    record Outbound(ByteBuf bytes, boolean event, boolean endOfPartition, boolean priority) {

        Outbound(ByteBuf bytes, boolean event, boolean endOfPartition) {
            this(bytes, event, endOfPartition, false);
        }
    }

    final ChannelId id;
    private final ConcurrentLinkedQueue<Outbound> queue = new ConcurrentLinkedQueue<>();
    /** Priority events (unaligned barriers): sent before anything in {@link #queue}, without credit. */
    private final ConcurrentLinkedQueue<Outbound> priority = new ConcurrentLinkedQueue<>();
    private final AtomicInteger queuedBuffers = new AtomicInteger();
    private final AtomicBoolean released = new AtomicBoolean();
    /** Set when the event loop should look at this subpartition again; avoids a task per buffer. */
    final AtomicBoolean signalled = new AtomicBoolean();
    private volatile LocalBufferPool pool;
    private volatile dev.runnel.runtime.io.TaskWaker producer;
    private volatile ServerConnectionHandler reader;
    private volatile String failure;
    private volatile Runnable sentListener;

    // Event loop only:
    int receiverId;
    int credit;
    boolean inReadyQueue;
    /** Whether the consumer was told of the backlog that waits for credit (reset when credit arrives). */
    boolean backlogAnnounced;

    OutboundSubpartition(ChannelId id) {
        this.id = id;
    }

    /** The producer attached: its buffers come from {@code pool}; {@code waker} is told of every buffer sent. */
    void attachProducer(LocalBufferPool pool, dev.runnel.runtime.io.TaskWaker waker) {
        this.pool = pool;
        this.producer = waker;
    }

    /** The consumer's request arrived over {@code reader}'s connection. Event loop. */
    void attachReader(ServerConnectionHandler reader, int receiverId, int initialCredit) {
        this.receiverId = receiverId;
        this.credit = initialCredit;
        this.reader = reader;
    }

    boolean hasReader() {
        return reader != null;
    }

    /** Producer: appends a full buffer or an event and tells the connection. */
    void add(Outbound element) {
        if (!element.event()) {
            queuedBuffers.incrementAndGet();
        }
        queue.add(element);
        if (released.get()) {
            scheduleDrop();
            return;
        }
        ServerConnectionHandler r = reader;
        if (r != null) {
            r.notifyDataAvailable(this);
        }
    }

    /** Producer: queues a priority event ahead of everything not sent yet, and tells the connection. */
    void addPriority(Outbound event) {
        priority.add(event);
        if (released.get()) {
            scheduleDrop();
            return;
        }
        ServerConnectionHandler r = reader;
        if (r != null) {
            r.notifyDataAvailable(this);
        }
    }

    /** Producer: runs {@code listener} once, after the network takes the next data buffer. */
    void notifyOnSent(Runnable listener) {
        sentListener = listener;
    }

    /** Producer: data buffers waiting to be sent. */
    int queuedBuffers() {
        return queuedBuffers.get();
    }

    /** Event loop: whether the head may go now (events need no credit, priority events go first). */
    boolean isSendable() {
        if (!priority.isEmpty()) {
            return true;
        }
        Outbound head = queue.peek();
        return head != null && (head.event() || credit > 0);
    }

    /** Event loop: takes the head; the caller checked {@link #isSendable()}. */
    Outbound take() {
        Outbound first = priority.poll();
        if (first != null) {
            return first;
        }
        Outbound head = queue.poll();
        if (head != null && !head.event()) {
            credit--;
            queuedBuffers.decrementAndGet();
            Runnable listener = sentListener;
            if (listener != null) {
                sentListener = null;
                listener.run();
            }
        }
        return head;
    }

    /** Gives a sent (or dropped) data buffer back to the producer's pool, and wakes a producer waiting for room. */
    void recycle(ByteBuf buffer) {
        pool.recycle(buffer);
        dev.runnel.runtime.io.TaskWaker waker = producer;
        if (waker != null) {
            waker.wake();
        }
    }

    /** Why the channel failed (its consumer went away), or null. */
    String failure() {
        return failure;
    }

    /** The channel cannot deliver any more: remembers why, and frees what is queued. Idempotent. */
    void fail(String reason) {
        if (failure == null) {
            failure = reason;
        }
        release();
    }

    /**
     * Frees every queued buffer; later additions are freed too. Idempotent, any thread. Once a consumer's
     * connection reads the queue, only its event loop may take from it, so the freeing runs there: a producer
     * that drops elements under the event loop's feet could make it send a buffer it has no credit for.
     */
    void release() {
        released.set(true);
        scheduleDrop();
    }

    private void scheduleDrop() {
        ServerConnectionHandler r = reader;
        if (r == null) {
            drop(); // no connection reads this queue, and one that attaches now sees released and stays away
        } else {
            r.runOnEventLoop(this::drop);
        }
    }

    boolean isReleased() {
        return released.get();
    }

    /** Event loop, or the only thread that touches the queue: frees every queued element. */
    void drop() {
        Outbound element;
        while ((element = priority.poll()) != null) {
            element.bytes().release();
        }
        while ((element = queue.poll()) != null) {
            if (element.event()) {
                element.bytes().release();
            } else {
                queuedBuffers.decrementAndGet();
                recycle(element.bytes());
            }
        }
    }
}
