package dev.runnel.runtime.io;

/**
 * The sending end of one job edge in one producer subtask: one subpartition (channel) per consumer
 * subtask it is wired to. Records are buffered per channel and handed over a batch at a time; a full
 * channel blocks the writer (backpressure), never an unbounded queue.
 *
 * <p>Only the producer's task thread calls these methods. Values are handed over by reference in one
 * JVM and serialized across processes; the caller must not modify a value after writing it unless it
 * is copied first (the task's output does that for mutable types when object reuse is off).
 */
public interface ResultPartitionWriter extends AutoCloseable {

    int getNumberOfSubpartitions();

    /** Appends a record to the buffer of {@code subpartition}; hands the buffer over when full. */
    void emitRecord(Object value, long timestamp, int subpartition) throws InterruptedException;

    /** Hands over every non-empty buffer now (buffer timeout, or timeout 0). */
    void flushAll() throws InterruptedException;

    /** Flushes, then sends {@code event} to every subpartition, in order after the records before it. */
    void broadcastEvent(ChannelEvent event) throws InterruptedException;

    /** Flushes and ends every subpartition with {@link EndOfPartitionEvent}; nothing may follow. */
    void finish() throws InterruptedException;

    /** Releases resources; after a failure, consumers learn of it through their own task's cancellation. */
    @Override
    void close();
}
