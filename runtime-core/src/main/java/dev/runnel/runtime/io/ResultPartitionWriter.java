package dev.runnel.runtime.io;

/**
 * The sending end of one job edge in one producer subtask: one subpartition (channel) per consumer
 * subtask it is wired to. Records are buffered per channel and handed over a batch at a time.
 *
 * <p>Backpressure is a status, not a park: {@link #isAvailable()} turns false once a channel holds as
 * much as it should, and the task then stops pulling input and keeps running its mail until
 * {@link #getAvailableFuture()} completes. What a record already being processed emits still goes
 * through, overdrawing each channel by a bounded number of batches; only beyond that bound does a write
 * wait (interruptibly) for room.
 *
 * <p>The writer owns the decision "copy or serialize": a writer within one JVM copies mutable values
 * (with the edge's serializer) so the producer may reuse its objects; a writer to another process
 * serializes once and never copies first. Only the producer's task thread calls these methods.
 */
public interface ResultPartitionWriter extends AvailabilityProvider, AutoCloseable {

    int getNumberOfSubpartitions();

    /**
     * Appends a record to the buffer of {@code subpartition}; hands the buffer over when full. Returns
     * {@link #isAvailable()} as far as this call could tell (false once a channel it handed over to is at
     * its limit), so callers learn of backpressure without an extra check per record.
     */
    boolean emitRecord(Object value, long timestamp, int subpartition) throws InterruptedException;

    /**
     * As {@link #emitRecord}, for a record of a keyBy edge whose key's hash code and key group (out of
     * {@code maxParallelism}) the partitioner computed: channels in memory hand them to the consumer with the
     * record ({@link RecordBatch#addKeyed}), so that it does not hash the key again. The default drops them.
     */
    default boolean emitKeyedRecord(Object value, long timestamp, int keyHash, int keyGroup, int maxParallelism,
            int subpartition) throws InterruptedException {
        return emitRecord(value, timestamp, subpartition);
    }

    /** Appends a record to every subpartition (each gets its own copy where copies are needed). */
    boolean broadcastRecord(Object value, long timestamp) throws InterruptedException;

    /** Hands over every non-empty buffer now (buffer timeout, or timeout 0). */
    void flushAll() throws InterruptedException;

    /** Flushes, then sends {@code event} to every subpartition, in order after the records before it. */
    void broadcastEvent(ChannelEvent event) throws InterruptedException;

    /**
     * Sends only the overtaking copy of priority event {@code event} to every subpartition, ahead of what each
     * holds, without the in-order copy {@link #broadcastEvent} adds: for a barrier already sent in order whose
     * aligned checkpoint timeout passed while it still waited in the queues (Flink converts such a barrier in
     * its output buffers). A consumer that already received the in-order copy ignores this one.
     *
     * @throws IllegalArgumentException if {@code event} is not a priority event
     */
    void broadcastPriorityEvent(ChannelEvent event) throws InterruptedException;

    /** Flushes and ends every subpartition with {@link EndOfPartitionEvent}; nothing may follow. */
    void finish() throws InterruptedException;

    /** Releases resources; after a failure, consumers learn of it through their own task's cancellation. */
    @Override
    void close();
}
