package dev.runnel.streaming.api.operators.async;

/**
 * The elements an {@link AsyncWaitOperator} holds: records waiting for their results and the watermarks
 * between them. Decides which elements may be emitted (in input order, or as completed up to the next
 * watermark). Task thread only.
 */
interface StreamElementQueue {

    /** One element in the queue; a watermark is done as soon as it is added. */
    interface Entry {
        boolean isDone();

        boolean isWatermark();

        /** Sends the element downstream: a record's results, or the watermark. */
        void emit();
    }

    /** Adds {@code entry} behind everything queued; the caller checks {@link #hasRoom()} first. */
    void add(Entry entry);

    /** Tells the queue that record {@code entry} just became done. */
    void completed(Entry entry);

    /** Emits, and removes, every element that may go downstream now. */
    void emitCompleted();

    /** Records and watermarks held. */
    int size();

    boolean hasRoom();

    default boolean isEmpty() {
        return size() == 0;
    }
}
