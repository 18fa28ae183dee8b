package dev.runnel.runtime.network.local;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.ChannelEvent.Type;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.network.partition.SubpartitionWriter;
import dev.runnel.runtime.shuffle.ChannelId;
import java.util.concurrent.CompletableFuture;

/**
 * The in-memory sending end of one channel: one open batch, handed over when full, on {@link #flush()},
 * or before an event. Values move by reference; a mutable value is copied first with the edge's
 * serializer, because the consumer's thread reads it while the producing function may already reuse it.
 * Producer task thread only.
 */
final class LocalSubpartitionWriter implements SubpartitionWriter {

    private final LocalChannel channel;
    private final int batchSize;
    private final TaskWaker self;
    private final TypeSerializer<Object> copier;
    private RecordBatch open;
    private boolean ended;

    LocalSubpartitionWriter(LocalChannel channel, int batchSize, TaskWaker self, TypeSerializer<Object> copier) {
        this.channel = channel;
        this.batchSize = batchSize;
        this.self = self;
        this.copier = copier;
        this.open = new RecordBatch(batchSize);
    }

    @Override
    public ChannelId id() {
        return channel.id();
    }

    @Override
    public boolean add(Object value, long timestamp) throws InterruptedException {
        Object toSend = copier == null ? value : copier.copy(value);
        if (open.add(toSend, timestamp)) {
            handOver();
            return channel.hasRoom();
        }
        return true;
    }

    @Override
    public boolean addKeyed(Object value, long timestamp, int keyHash, int keyGroup, int maxParallelism)
            throws InterruptedException {
        // A copy's key is equal to the original's, so it has the same hash and key group.
        Object toSend = copier == null ? value : copier.copy(value);
        if (open.addKeyed(toSend, timestamp, keyHash, keyGroup, maxParallelism)) {
            handOver();
            return channel.hasRoom();
        }
        return true;
    }

    @Override
    public void flush() throws InterruptedException {
        if (!open.isEmpty()) {
            handOver();
        }
    }

    @Override
    public void sendEvent(ChannelEvent event) throws InterruptedException {
        flush();
        checkNotEnded();
        // An event element is immutable and never recycled; broadcasts may share one per event.
        channel.send(RecordBatch.ofEvent(event), self);
        ended = event.type() == Type.END_OF_PARTITION;
    }

    @Override
    public void sendPriorityEvent(ChannelEvent event) throws InterruptedException {
        checkNotEnded();
        channel.sendPriority(RecordBatch.ofPriorityEvent(event), self);
    }

    @Override
    public boolean hasRoom() {
        return channel.hasRoom();
    }

    @Override
    public void notifyOnRoom(CompletableFuture<Void> listener) {
        channel.notifyOnRoom(listener);
    }

    @Override
    public void release() {
        ended = true;
    }

    private void handOver() throws InterruptedException {
        checkNotEnded();
        channel.send(open, self);
        RecordBatch next = channel.takeRecycled();
        open = next != null ? next : new RecordBatch(batchSize);
    }

    private void checkNotEnded() {
        if (ended) {
            throw new IllegalStateException("channel " + channel.id()
                    + " already ended; nothing may be written after end of input");
        }
    }
}
