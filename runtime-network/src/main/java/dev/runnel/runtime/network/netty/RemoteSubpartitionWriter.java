package dev.runnel.runtime.network.netty;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.ChannelEventCodec;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.network.netty.OutboundSubpartition.Outbound;
import dev.runnel.runtime.network.partition.SubpartitionWriter;
import dev.runnel.runtime.shuffle.ChannelId;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;

/**
 * The sending end of one channel to another TaskManager: serializes each record once, as
 * {@code [length][timestamp][value]}, into pooled buffers of fixed size (a record larger than a buffer
 * continues in the next), and queues full buffers for the network. Never copies a value first. Producer
 * task thread only.
 */
final class RemoteSubpartitionWriter implements SubpartitionWriter {

    private final OutboundSubpartition outbound;
    private final LocalBufferPool pool;
    private final TypeSerializer<Object> serializer;
    private final int maxQueuedBuffers;
    private final TaskWaker self;
    private final DataOutputSerializer scratch = new DataOutputSerializer(256);
    private final ChannelMetrics metrics;
    private final java.util.concurrent.atomic.AtomicBoolean waitingForBuffer = new java.util.concurrent.atomic.AtomicBoolean();
    private final Runnable bufferReturned;
    private ByteBuf current;
    private boolean ended;

    @SuppressWarnings("unchecked")
    RemoteSubpartitionWriter(OutboundSubpartition outbound, LocalBufferPool pool, TypeSerializer<?> serializer,
            int maxQueuedBuffers, TaskWaker self, ChannelMetrics metrics) {
        if (serializer == null) {
            throw new IllegalArgumentException("channel " + outbound.id + " crosses TaskManagers but its edge has no"
                    + " serializer; records cannot be sent over the network");
        }
        this.outbound = outbound;
        this.pool = pool;
        this.serializer = (TypeSerializer<Object>) serializer;
        this.maxQueuedBuffers = maxQueuedBuffers;
        this.self = self;
        this.metrics = metrics;
        // One waiter at a time in the pool, however often the wait loop goes round.
        this.bufferReturned = () -> {
            waitingForBuffer.set(false);
            self.wake();
        };
        outbound.attachProducer(pool, self);
    }

    @Override
    public ChannelId id() {
        return outbound.id;
    }

    @Override
    public boolean add(Object value, long timestamp) throws InterruptedException {
        checkUsable();
        DataOutputSerializer out = scratch;
        out.clear();
        out.writeInt(0);
        out.writeLong(timestamp);
        try {
            serializer.serialize(value, out);
        } catch (IOException e) {
            throw new UncheckedIOException("serializing a record for channel " + outbound.id + " failed", e);
        }
        out.writeIntAt(0, out.length() - 4);
        // Between two hand-overs room can only grow (the network takes buffers), so only a hand-over can
        // change the answer from yes to no.
        return !copyIntoBuffers(out.getSharedBuffer(), out.length()) || hasRoom();
    }

    /** Copies a serialized record into buffers; returns whether a full buffer was handed over. */
    private boolean copyIntoBuffers(byte[] bytes, int length) throws InterruptedException {
        boolean handedOver = false;
        int offset = 0;
        while (offset < length) {
            if (current == null) {
                current = requestBuffer();
            }
            int n = Math.min(length - offset, current.writableBytes());
            current.writeBytes(bytes, offset, n);
            offset += n;
            if (!current.isWritable()) {
                handOver();
                handedOver = true;
            }
        }
        return handedOver;
    }

    /** A buffer, waiting (interruptibly) when the pool has none: the bounded overdraft past backpressure. */
    private ByteBuf requestBuffer() throws InterruptedException {
        ByteBuf buffer = pool.request();
        while (buffer == null) {
            self.prepareToPark();
            if (waitingForBuffer.compareAndSet(false, true)) {
                pool.notifyWhenAvailable(bufferReturned);
            }
            buffer = pool.request();
            if (buffer != null) {
                self.cancelPark();
                break;
            }
            self.park();
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for a network buffer for channel " + outbound.id);
            }
            checkUsable();
            buffer = pool.request();
        }
        return buffer;
    }

    private void handOver() {
        ByteBuf full = current;
        current = null;
        metrics.count(full.readableBytes());
        outbound.add(new Outbound(full, false, false));
    }

    @Override
    public void flush() {
        if (current != null && current.readableBytes() > 0) {
            checkUsable();
            handOver();
        }
    }

    @Override
    public void sendEvent(ChannelEvent event) {
        flush();
        checkUsable();
        DataOutputSerializer out = scratch;
        out.clear();
        try {
            ChannelEventCodec.write(event, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        boolean end = event.type() == ChannelEvent.Type.END_OF_PARTITION;
        outbound.add(new Outbound(Unpooled.wrappedBuffer(out.getCopyOfBuffer()), true, end));
        if (end) {
            ended = true;
            releaseCurrent();
        }
    }

    /** Serialized as any event, queued ahead of the buffers the network has not sent yet (and without credit). */
    @Override
    public void sendPriorityEvent(ChannelEvent event) {
        checkUsable();
        DataOutputSerializer out = scratch;
        out.clear();
        try {
            ChannelEventCodec.write(event, out);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        outbound.addPriority(new Outbound(Unpooled.wrappedBuffer(out.getCopyOfBuffer()), true, false, true));
    }

    @Override
    public boolean hasRoom() {
        return outbound.queuedBuffers() < maxQueuedBuffers
                && ((current != null && current.isWritable()) || pool.hasAvailable());
    }

    @Override
    public void notifyOnRoom(CompletableFuture<Void> listener) {
        // Room comes from the network taking one of this channel's buffers, or, when the whole TaskManager is
        // out of buffers, from any buffer coming back to its pool.
        outbound.notifyOnSent(() -> listener.complete(null));
        if (pool.isGloballyExhausted()) {
            pool.notifyWhenAvailable(() -> listener.complete(null));
        }
    }

    /** Filled buffers waiting for the network (for the partition's queue-length metric). */
    int queuedBuffers() {
        return outbound.queuedBuffers();
    }

    /** For diagnostics: the credit shown is the network thread's, read without synchronization. */
    @Override
    public String toString() {
        return outbound.id + "[queued=" + outbound.queuedBuffers() + " credit=" + outbound.credit + " announced="
                + outbound.backlogAnnounced + " current=" + (current == null ? "-" : current.writableBytes())
                + " pool=" + pool.hasAvailable() + "]";
    }

    @Override
    public void release() {
        ended = true;
        releaseCurrent();
        outbound.release();
    }

    private void releaseCurrent() {
        if (current != null) {
            pool.recycle(current);
            current = null;
        }
    }

    private void checkUsable() {
        String failure = outbound.failure();
        if (failure != null) {
            throw new ChannelFailedException(failure);
        }
        if (ended) {
            throw new IllegalStateException("channel " + outbound.id
                    + " already ended; nothing may be written after end of input");
        }
    }
}
