package dev.runnel.runtime.io;

/**
 * The receiving end of one input of a consumer subtask: the channels from every upstream subtask
 * wired to it (and from several edges, for a union). Polled by the consumer's task thread only.
 *
 * <p>Channels can be blocked one by one ({@link #blockChannel}) and are then skipped by
 * {@link #pollNext()} and by availability until {@link #resumeAllChannels()}: aligned checkpoints hold a
 * channel that delivered a barrier until every channel has.
 */
public interface InputGate extends AvailabilityProvider, AutoCloseable {

    int getNumberOfInputChannels();

    /**
     * The next element of some unblocked channel (a batch of records, or one event when
     * {@link RecordBatch#isEvent()}), or null when none is available right now. Channels are served
     * fairly. {@link #lastChannel()} tells which one it came from.
     */
    RecordBatch pollNext();

    /** Whether {@link #pollNext()} would return something now (unblocked channels only). */
    @Override
    boolean isAvailable();

    /** The channel index of the element {@link #pollNext()} returned last. */
    int lastChannel();

    /**
     * Gives a consumed batch of records back for reuse by its producer. Must be called before the next
     * {@link #pollNext()}, since it goes back to the channel of the last element. Events are not recycled.
     */
    void recycle(RecordBatch batch);

    /** Stops delivering from {@code channel} until {@link #resumeAllChannels()}; its data stays queued. */
    void blockChannel(int channel);

    /** Whether {@code channel} is blocked. */
    boolean isBlocked(int channel);

    /** Delivers from every channel again. */
    void resumeAllChannels();

    /** True once every channel delivered its {@link EndOfPartitionEvent}. */
    boolean isFinished();

    @Override
    void close();
}
