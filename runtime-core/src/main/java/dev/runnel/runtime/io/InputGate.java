package dev.runnel.runtime.io;

/**
 * The receiving end of one input of a consumer subtask: the channels from every upstream subtask
 * wired to it (and from several edges, for a union). Polled by the consumer's task thread only.
 */
public interface InputGate extends AutoCloseable {

    int getNumberOfInputChannels();

    /**
     * The next {@link RecordBatch} or {@link ChannelEvent} of some channel, or null when none is
     * available right now. Channels are served fairly. {@link #lastChannel()} tells which one it came from.
     */
    Object pollNext();

    /**
     * Whether {@link #pollNext()} would return something now. Used by the consumer after announcing
     * that it is about to park, to avoid sleeping on data that already arrived.
     */
    boolean isAvailable();

    /** The channel index of the element {@link #pollNext()} returned last. */
    int lastChannel();

    /**
     * Gives a consumed batch back for reuse by its producer. Must be called before the next
     * {@link #pollNext()}, since it goes back to the channel of the last element.
     */
    void recycle(RecordBatch batch);

    /** True once every channel delivered its {@link EndOfPartitionEvent}. */
    boolean isFinished();

    @Override
    void close();
}
