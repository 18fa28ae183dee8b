package dev.runnel.runtime.network.local;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import java.util.concurrent.CompletableFuture;

/**
 * The in-memory sending end of an edge for one producer subtask: one open batch per channel, handed
 * over when full, on {@link #flushAll()}, or before an event. Values move by reference; a mutable value
 * is copied first with the edge's serializer, because the consumer's thread reads it while the producing
 * function may already reuse it. Task thread only.
 */
final class LocalResultPartitionWriter implements ResultPartitionWriter {

    private final LocalChannel[] channels;
    private final RecordBatch[] open;
    private final int batchSize;
    private final TaskWaker self;
    private final TypeSerializer<Object> copier;
    private boolean finished;

    LocalResultPartitionWriter(LocalChannel[] channels, int batchSize, TaskWaker self, TypeSerializer<Object> copier) {
        this.channels = channels;
        this.open = new RecordBatch[channels.length];
        this.batchSize = batchSize;
        this.self = self;
        this.copier = copier;
        for (int i = 0; i < channels.length; i++) {
            open[i] = new RecordBatch(batchSize);
        }
    }

    @Override
    public int getNumberOfSubpartitions() {
        return channels.length;
    }

    @Override
    public boolean emitRecord(Object value, long timestamp, int subpartition) throws InterruptedException {
        Object toSend = copier == null ? value : copier.copy(value);
        if (open[subpartition].add(toSend, timestamp)) {
            return handOver(subpartition);
        }
        return true;
    }

    @Override
    public boolean broadcastRecord(Object value, long timestamp) throws InterruptedException {
        boolean available = true;
        for (int i = 0; i < channels.length; i++) {
            available &= emitRecord(value, timestamp, i);
        }
        return available;
    }

    @Override
    public void flushAll() throws InterruptedException {
        for (int i = 0; i < channels.length; i++) {
            if (!open[i].isEmpty()) {
                handOver(i);
            }
        }
    }

    @Override
    public void broadcastEvent(ChannelEvent event) throws InterruptedException {
        checkNotFinished();
        flushAll();
        // An event element is immutable and never recycled, so every channel may carry the same one.
        RecordBatch element = RecordBatch.ofEvent(event);
        for (LocalChannel channel : channels) {
            channel.send(element, self);
        }
    }

    @Override
    public void finish() throws InterruptedException {
        broadcastEvent(EndOfPartitionEvent.INSTANCE);
        finished = true;
    }

    @Override
    public boolean isAvailable() {
        for (LocalChannel channel : channels) {
            if (!channel.hasRoom()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public CompletableFuture<Void> getAvailableFuture() {
        if (isAvailable()) {
            return AVAILABLE;
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        for (LocalChannel channel : channels) {
            if (!channel.hasRoom()) {
                channel.notifyOnRoom(future);
            }
        }
        // Room made while registering must not be missed; a premature completion only costs a re-check.
        if (isAvailable()) {
            future.complete(null);
        }
        return future;
    }

    @Override
    public void close() {
        finished = true;
    }

    /** Sends the open batch of {@code subpartition}; returns whether that channel still has room. */
    private boolean handOver(int subpartition) throws InterruptedException {
        checkNotFinished();
        LocalChannel channel = channels[subpartition];
        channel.send(open[subpartition], self);
        RecordBatch next = channel.takeRecycled();
        open[subpartition] = next != null ? next : new RecordBatch(batchSize);
        return channel.hasRoom();
    }

    private void checkNotFinished() {
        if (finished) {
            throw new IllegalStateException("result partition already finished; nothing may be written after end of input");
        }
    }
}
