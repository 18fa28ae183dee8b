package dev.runnel.runtime.network.partition;

import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.shuffle.ChannelId;
import java.util.concurrent.CompletableFuture;

/**
 * The sending end of one channel inside a result partition: buffers records (by reference in memory,
 * serialized over the network) and hands them on. Producer task thread only, except where noted.
 */
public interface SubpartitionWriter {

    ChannelId id();

    /**
     * Appends one record. Returns whether the channel still has room afterwards; false asks the task to stop
     * pulling input. A record is always accepted: past the channel's bound it waits (interruptibly) for room.
     */
    boolean add(Object value, long timestamp) throws InterruptedException;

    /**
     * As {@link #add}, for a record of a keyBy edge with its key's hash code and key group out of
     * {@code maxParallelism} (see {@link dev.runnel.runtime.io.ResultPartitionWriter#emitKeyedRecord}). The default
     * drops them: a serialized record carries its key, and the receiver hashes it.
     */
    default boolean addKeyed(Object value, long timestamp, int keyHash, int keyGroup, int maxParallelism)
            throws InterruptedException {
        return add(value, timestamp);
    }

    /** Hands over what is buffered now, even if the buffer is not full. */
    void flush() throws InterruptedException;

    /** Flushes, then sends {@code event} in order after every record before it. */
    void sendEvent(ChannelEvent event) throws InterruptedException;

    /**
     * Sends {@code event} ahead of everything this channel holds that its consumer has not taken yet (the
     * barrier of an unaligned checkpoint); the consumer sees it as {@link dev.runnel.runtime.io.RecordBatch#isPriority()}.
     * Does not flush. The caller sends the in-order copy with {@link #sendEvent} afterwards: it marks where the
     * event was sent among the records, which is where the data it overtook ends.
     */
    void sendPriorityEvent(ChannelEvent event) throws InterruptedException;

    /** Whether the channel can take more input now. */
    boolean hasRoom();

    /** Completes {@code listener} (from another thread) once the channel may have room again. */
    void notifyOnRoom(CompletableFuture<Void> listener);

    /** Releases what the channel holds (buffers go back to their pool); idempotent. */
    void release();
}
