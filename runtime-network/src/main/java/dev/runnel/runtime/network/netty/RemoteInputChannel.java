package dev.runnel.runtime.network.netty;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.network.partition.InputChannelReader;
import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.ChannelId;
import io.netty.buffer.ByteBuf;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The receiving end of one channel from another TaskManager, with credit-based flow control: the channel
 * owns a few exclusive buffers (its standing credit) and borrows floating ones from its gate when the sender
 * announces a backlog; the sender sends a buffer only against credit, so nothing arrives that has no buffer
 * to go into and TCP never fills with data nobody can take. The event loop receives into the channel's free
 * buffers; the consumer's task thread deserializes and gives each buffer back, which returns its credit.
 */
final class RemoteInputChannel implements InputChannelReader {

    private record Inbound(ByteBuf buffer, ChannelEvent event) {}

    private final ChannelDescriptor descriptor;
    private final ClientConnection connection;
    private final FloatingBuffers gatePool;
    private final int exclusive;
    private final ConcurrentLinkedQueue<ByteBuf> free = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Inbound> received = new ConcurrentLinkedQueue<>();
    /** Events that overtook the queued buffers (unaligned barriers); the consumer takes them first. */
    private final ConcurrentLinkedQueue<ChannelEvent> priority = new ConcurrentLinkedQueue<>();
    private final AtomicInteger owned = new AtomicInteger();
    private final AtomicInteger unannouncedCredit = new AtomicInteger();
    private final AtomicBoolean released = new AtomicBoolean();
    private final RecordDeserializer deserializer;
    private final ChannelMetrics metrics;
    private final Runnable onReleased;
    private final RecordBatch[] batches = {null, null};
    private final int batchSize;
    private volatile TaskWaker consumer;
    private volatile CompletableFuture<Void> dataListener;
    private volatile String failure;
    /** The backlog the sender announced with its last buffer. */
    private volatile int senderBacklog;
    private int nextBatch;
    private int receiverId;
    private boolean requested;
    private boolean ended;

    RemoteInputChannel(ChannelDescriptor descriptor, ClientConnection connection, FloatingBuffers gatePool,
            int exclusive, TypeSerializer<?> serializer, int batchSize, int maxRecordBytes, ChannelMetrics metrics,
            Runnable onReleased) {
        if (serializer == null) {
            throw new IllegalArgumentException("channel " + descriptor.id() + " crosses TaskManagers but its edge has"
                    + " no serializer; records cannot be received over the network");
        }
        this.descriptor = descriptor;
        this.connection = connection;
        this.gatePool = gatePool;
        this.exclusive = exclusive;
        this.batchSize = batchSize;
        this.metrics = metrics;
        this.onReleased = onReleased;
        this.deserializer = new RecordDeserializer(descriptor.id(), serializer, maxRecordBytes);
        for (int i = 0; i < exclusive; i++) {
            free.add(gatePool.request());
        }
        owned.set(exclusive);
    }

    /** Registers with the connection and asks the producer for the channel, granting the exclusive credit. */
    void requestPartition(TaskWaker waker) {
        this.consumer = waker;
        // The id is set before registering: the event loop reads it once the registration is published.
        this.receiverId = connection.newReceiverId();
        connection.register(this, receiverId, exclusive);
        this.requested = true;
    }

    @Override
    public ChannelId id() {
        return descriptor.id();
    }

    ChannelDescriptor descriptor() {
        return descriptor;
    }

    // ------------------------------------------------------------------ event loop

    /** A buffer frame arrived: copy it into a credited buffer and queue it for the consumer. */
    void onBuffer(ByteBuf payload, int backlog) {
        if (released.get()) {
            return;
        }
        ByteBuf target = free.poll();
        if (target == null) {
            throw new Protocol.ProtocolException("sent a buffer for channel " + descriptor.id()
                    + " without credit for it");
        }
        metrics.count(payload.readableBytes());
        target.writeBytes(payload);
        received.add(new Inbound(target, null));
        senderBacklog = backlog;
        signalConsumer();
        if (backlog > 0) {
            borrowForBacklog(backlog);
        }
    }

    /** The sender has {@code backlog} buffers waiting and no credit for them. */
    void onBacklog(int backlog) {
        if (released.get()) {
            return;
        }
        senderBacklog = backlog;
        borrowForBacklog(backlog);
    }

    void onEvent(ChannelEvent event) {
        if (released.get()) {
            return;
        }
        received.add(new Inbound(null, event));
        signalConsumer();
    }

    /**
     * A priority event arrived (it overtook the sender's queue): the consumer gets it before the buffers
     * received so far, which it overtakes here too. Its in-order copy arrives later through {@link #onEvent}.
     */
    void onPriorityEvent(ChannelEvent event) {
        if (released.get()) {
            return;
        }
        priority.add(event);
        signalConsumer();
    }

    /** The sender has {@code backlog} more buffers: lend it floating buffers from the gate, as many as free. */
    private void borrowForBacklog(int backlog) {
        int borrowed = 0;
        while (free.size() + borrowed < backlog) {
            ByteBuf buffer = gatePool.request();
            if (buffer == null) {
                break;
            }
            free.add(buffer);
            owned.incrementAndGet();
            borrowed++;
        }
        if (borrowed > 0) {
            connection.announceCredit(receiverId, borrowed);
        }
        if (free.size() < backlog) {
            gatePool.awaitBuffer(this);
        }
    }

    /** A floating buffer came back to the gate: try again (on the event loop) to cover the sender's backlog. */
    void retryBorrowing() {
        connection.onEventLoop(() -> {
            int backlog = senderBacklog;
            if (!released.get() && backlog > 0) {
                borrowForBacklog(backlog);
            }
        });
    }

    /** The connection is gone or the producer reported an error: the consumer fails on its next poll. */
    void fail(String reason) {
        if (!ended && failure == null) {
            failure = reason;
            signalConsumer();
        }
    }

    private void signalConsumer() {
        TaskWaker waker = consumer;
        if (waker != null) {
            waker.wake();
        }
        CompletableFuture<Void> listener = dataListener;
        if (listener != null) {
            dataListener = null;
            listener.complete(null);
        }
    }

    // ------------------------------------------------------------------ consumer task thread

    @Override
    public RecordBatch poll() {
        if (!priority.isEmpty()) {
            // Between two batches, so even in the middle of a buffer: the event is outside the record stream.
            return RecordBatch.ofPriorityEvent(priority.poll());
        }
        while (true) {
            if (!deserializer.hasBuffer()) {
                Inbound next = received.poll();
                if (next == null) {
                    String reason = failure;
                    if (reason != null) {
                        throw new ChannelFailedException(reason);
                    }
                    return null;
                }
                if (next.event() != null) {
                    if (deserializer.hasPartialRecord()) {
                        throw new ChannelFailedException("channel " + descriptor.id() + " delivered an event in the"
                                + " middle of a record: the stream is corrupt");
                    }
                    if (next.event().type() == ChannelEvent.Type.END_OF_PARTITION) {
                        ended = true;
                    }
                    return RecordBatch.ofEvent(next.event());
                }
                deserializer.setBuffer(next.buffer());
            }
            RecordBatch batch = takeBatch();
            ByteBuf usedUp = deserializer.readInto(batch);
            if (usedUp != null) {
                recycleBuffer(usedUp);
            }
            if (!batch.isEmpty()) {
                return batch;
            }
        }
    }

    private RecordBatch takeBatch() {
        int index = nextBatch;
        nextBatch = 1 - index;
        RecordBatch batch = batches[index];
        if (batch == null) {
            batch = new RecordBatch(batchSize);
            batches[index] = batch;
        }
        batch.clear();
        return batch;
    }

    /**
     * A buffer is consumed: keep it as credit while the sender has a backlog (or it is one of the exclusive
     * ones), else give the floating buffer back to the gate for another channel.
     */
    private void recycleBuffer(ByteBuf buffer) {
        if (released.get()) {
            owned.decrementAndGet();
            gatePool.recycle(buffer);
            return;
        }
        if (owned.get() > exclusive && senderBacklog == 0) {
            owned.decrementAndGet();
            gatePool.recycle(buffer);
            return;
        }
        buffer.clear();
        free.add(buffer);
        if (unannouncedCredit.getAndIncrement() == 0) {
            connection.flushCredit(this);
        }
    }

    /** Event loop: the credit the consumer freed since the last announcement. */
    int takeUnannouncedCredit() {
        return unannouncedCredit.getAndSet(0);
    }

    /** Received buffers and events the consumer has not taken yet (for the gate's queue-length metric). */
    int queuedBuffers() {
        return received.size();
    }

    int receiverId() {
        return receiverId;
    }

    @Override
    public boolean hasData() {
        return deserializer.hasBuffer() || !received.isEmpty() || failure != null || !priority.isEmpty();
    }

    @Override
    public void recycle(RecordBatch batch) {
        // Batches are the channel's own two, reused alternately.
    }

    @Override
    public void notifyOnData(CompletableFuture<Void> listener) {
        dataListener = listener;
    }

    /**
     * Gives every buffer back to the gate and, unless the channel ended, tells the producer it is no longer
     * wanted. Idempotent. Consumer task thread (the event loop may still be delivering: it sees released, and
     * the buffers it holds are returned on the event loop afterwards).
     */
    @Override
    public void release() {
        if (!released.compareAndSet(false, true)) {
            return;
        }
        ByteBuf current = deserializer.takeBuffer();
        if (current != null) {
            owned.decrementAndGet();
            gatePool.recycle(current);
        }
        gatePool.forget(this);
        if (requested) {
            connection.unregister(this, !ended);
        }
        connection.onEventLoop(this::returnBuffers);
    }

    /** Event loop, after release: nothing more is received, so every buffer can go home. */
    private void returnBuffers() {
        ByteBuf buffer;
        while ((buffer = free.poll()) != null) {
            owned.decrementAndGet();
            gatePool.recycle(buffer);
        }
        Inbound inbound;
        while ((inbound = received.poll()) != null) {
            if (inbound.buffer() != null) {
                owned.decrementAndGet();
                gatePool.recycle(inbound.buffer());
            }
        }
        onReleased.run();
    }

    @Override
    public String toString() {
        return "remote channel " + descriptor.id() + " from " + descriptor.producer();
    }
}
