package dev.runnel.runtime.network.partition;

import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.ResultPartitionWriter;
import java.util.concurrent.CompletableFuture;

/**
 * The sending end of an edge for one producer subtask over its subpartitions, each in memory or remote:
 * routes every record to its subpartition and events to all of them. What is copied or serialized, and
 * how much may be buffered, is each subpartition's business. Task thread only.
 */
public final class ChannelResultPartitionWriter implements ResultPartitionWriter {

    private final SubpartitionWriter[] subpartitions;
    private final Runnable onClose;
    private boolean finished;
    private boolean closed;

    public ChannelResultPartitionWriter(SubpartitionWriter[] subpartitions) {
        this(subpartitions, () -> { });
    }

    /** @param onClose runs once when the writer is closed, after its subpartitions (frees shared resources) */
    public ChannelResultPartitionWriter(SubpartitionWriter[] subpartitions, Runnable onClose) {
        if (subpartitions.length == 0) {
            throw new IllegalArgumentException("a result partition needs at least one subpartition");
        }
        this.subpartitions = subpartitions;
        this.onClose = onClose;
    }

    @Override
    public int getNumberOfSubpartitions() {
        return subpartitions.length;
    }

    @Override
    public boolean emitRecord(Object value, long timestamp, int subpartition) throws InterruptedException {
        return subpartitions[subpartition].add(value, timestamp);
    }

    @Override
    public boolean emitKeyedRecord(Object value, long timestamp, int keyHash, int keyGroup, int maxParallelism,
            int subpartition) throws InterruptedException {
        return subpartitions[subpartition].addKeyed(value, timestamp, keyHash, keyGroup, maxParallelism);
    }

    @Override
    public boolean broadcastRecord(Object value, long timestamp) throws InterruptedException {
        boolean available = true;
        for (SubpartitionWriter subpartition : subpartitions) {
            available &= subpartition.add(value, timestamp);
        }
        return available;
    }

    @Override
    public void flushAll() throws InterruptedException {
        for (SubpartitionWriter subpartition : subpartitions) {
            subpartition.flush();
        }
    }

    /**
     * A {@link ChannelEvent#isPriority() priority} event goes to every channel twice: first ahead of what each
     * holds (before the flush, so a full channel does not hold it back), then in order.
     */
    @Override
    public void broadcastEvent(ChannelEvent event) throws InterruptedException {
        checkNotFinished();
        if (event.isPriority()) {
            for (SubpartitionWriter subpartition : subpartitions) {
                subpartition.sendPriorityEvent(event);
            }
        }
        for (SubpartitionWriter subpartition : subpartitions) {
            subpartition.sendEvent(event);
        }
    }

    @Override
    public void broadcastPriorityEvent(ChannelEvent event) throws InterruptedException {
        if (!event.isPriority()) {
            throw new IllegalArgumentException("only a priority event can overtake the queued data, not " + event);
        }
        checkNotFinished();
        for (SubpartitionWriter subpartition : subpartitions) {
            subpartition.sendPriorityEvent(event);
        }
    }

    @Override
    public void finish() throws InterruptedException {
        broadcastEvent(EndOfPartitionEvent.INSTANCE);
        finished = true;
    }

    @Override
    public boolean isAvailable() {
        for (SubpartitionWriter subpartition : subpartitions) {
            if (!subpartition.hasRoom()) {
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
        for (SubpartitionWriter subpartition : subpartitions) {
            if (!subpartition.hasRoom()) {
                subpartition.notifyOnRoom(future);
            }
        }
        // Room made while registering must not be missed; a premature completion only costs a re-check.
        if (isAvailable()) {
            future.complete(null);
        }
        return future;
    }

    /**
     * After a normal finish the subpartitions still deliver what they hold (a remote one until its end of
     * partition is on the wire); after a failure or cancellation they drop it and free their buffers.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (!finished) {
            finished = true;
            for (SubpartitionWriter subpartition : subpartitions) {
                subpartition.release();
            }
        }
        onClose.run();
    }

    @Override
    public String toString() {
        return java.util.Arrays.toString(subpartitions);
    }

    private void checkNotFinished() {
        if (finished) {
            throw new IllegalStateException("result partition already finished; nothing may be written after end of input");
        }
    }
}
