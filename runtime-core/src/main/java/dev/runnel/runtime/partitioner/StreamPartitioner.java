package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;
import java.io.Serializable;

/**
 * Chooses the output channel (downstream subtask) of each record on an edge, and describes the edge
 * to the compiler and to rescaling: whether it is pointwise or all-to-all, whether it broadcasts, and
 * how in-flight channel state is redistributed on either side.
 *
 * <p>An instance is owned by exactly one sending subtask and is not thread-safe: round-robin
 * partitioners keep a cursor. The compiler keeps a prototype and gives each subtask a {@link #copy()};
 * {@link #setup(int)} is called once with the number of channels before the first record.
 *
 * @param <T> the record type
 */
public abstract class StreamPartitioner<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The number of output channels, set by {@link #setup(int)}. */
    protected int numberOfChannels;

    /** Prepares this instance for {@code numberOfChannels} output channels. */
    public void setup(int numberOfChannels) {
        if (numberOfChannels <= 0) {
            throw new IllegalArgumentException(
                    "numberOfChannels must be > 0, was " + numberOfChannels + " (partitioner " + this + ")");
        }
        this.numberOfChannels = numberOfChannels;
    }

    /** The number of output channels given to {@link #setup(int)}. */
    public int getNumberOfChannels() {
        return numberOfChannels;
    }

    /**
     * The channel, in {@code [0, numberOfChannels)}, for {@code record}. Broadcasting partitioners
     * do not choose and throw {@link UnsupportedOperationException}.
     */
    public abstract int selectChannel(T record);

    /** True when each upstream subtask feeds a fixed subset of downstream subtasks. */
    public abstract boolean isPointwise();

    /** The job-edge pattern this partitioner needs: derived from {@link #isPointwise()}. */
    public final DistributionPattern getDistributionPattern() {
        return isPointwise() ? DistributionPattern.POINTWISE : DistributionPattern.ALL_TO_ALL;
    }

    /** True when every record goes to every channel instead of to one chosen channel. */
    public boolean isBroadcast() {
        return false;
    }

    /** How output (upstream) channel state is redistributed when the sending side is rescaled. */
    public SubtaskStateMapper getUpstreamSubtaskStateMapper() {
        return SubtaskStateMapper.ARBITRARY;
    }

    /** How input (downstream) channel state is redistributed when the receiving side is rescaled. */
    public abstract SubtaskStateMapper getDownstreamSubtaskStateMapper();

    /** Whether in-flight records on this edge can be captured by unaligned checkpoints and rescaled. */
    public boolean isSupportsUnalignedCheckpoint() {
        return !isPointwise() && !isBroadcast();
    }

    /**
     * True when record {@code i} of subtask {@code k} can only go to subtask {@code k} downstream: the
     * one strategy that allows chaining the two operators into one task.
     */
    public boolean isForward() {
        return false;
    }

    /**
     * This partitioner for a downstream operator with {@code maxParallelism} key groups. Only
     * key-group partitioning depends on it; others return themselves.
     */
    public StreamPartitioner<T> forMaxParallelism(int maxParallelism) {
        return this;
    }

    /** A fresh instance with the same configuration and no per-subtask cursor state. */
    public abstract StreamPartitioner<T> copy();

    /** Short upper-case name of the strategy, as shown in plans ({@code FORWARD}, {@code HASH}, ...). */
    @Override
    public abstract String toString();
}
