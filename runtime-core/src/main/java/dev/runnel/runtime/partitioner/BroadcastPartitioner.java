package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;

/** Sends every record to every downstream subtask. */
public final class BroadcastPartitioner<T> extends StreamPartitioner<T> {

    private static final long serialVersionUID = 1L;

    /** Always throws: a broadcast writes every record to all channels instead of choosing one. */
    @Override
    public int selectChannel(T record) {
        throw new UnsupportedOperationException(
                "The broadcast partitioner does not select a channel; the writer sends each record to all channels.");
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public boolean isBroadcast() {
        return true;
    }

    @Override
    public SubtaskStateMapper getUpstreamSubtaskStateMapper() {
        return SubtaskStateMapper.UNSUPPORTED;
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return SubtaskStateMapper.UNSUPPORTED;
    }

    @Override
    public StreamPartitioner<T> copy() {
        return new BroadcastPartitioner<>();
    }

    @Override
    public String toString() {
        return "BROADCAST";
    }
}
