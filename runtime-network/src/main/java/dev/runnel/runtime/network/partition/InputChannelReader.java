package dev.runnel.runtime.network.partition;

import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.shuffle.ChannelId;
import java.util.concurrent.CompletableFuture;

/**
 * The receiving end of one channel inside an input gate: delivers batches of records and events in the
 * order they were sent. Consumer task thread only, except where noted.
 */
public interface InputChannelReader {

    ChannelId id();

    /**
     * The next batch or event, or null when nothing is there yet. Throws when the channel failed (its
     * connection was lost), naming the channel and the remote end.
     */
    RecordBatch poll();

    /** Whether {@link #poll()} would return something (or throw) now. */
    boolean hasData();

    /** Gives a consumed batch of records back for reuse. */
    void recycle(RecordBatch batch);

    /** Completes {@code listener} (from another thread) once data arrives; the caller re-checks afterwards. */
    void notifyOnData(CompletableFuture<Void> listener);

    /** Releases what the channel holds; idempotent. */
    void release();
}
