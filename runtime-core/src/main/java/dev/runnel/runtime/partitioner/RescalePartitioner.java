package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;

/**
 * Round robin over the few downstream subtasks a pointwise edge connects this subtask to: cheaper
 * than rebalance when parallelisms differ, because no subtask talks to all others.
 */
public final class RescalePartitioner<T> extends StreamPartitioner<T> {

    private static final long serialVersionUID = 1L;

    private int nextChannelToSendTo = -1;

    @Override
    public int selectChannel(T record) {
        int next = nextChannelToSendTo + 1;
        if (next >= numberOfChannels) {
            next = 0;
        }
        nextChannelToSendTo = next;
        return next;
    }

    @Override
    public boolean isPointwise() {
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
        return new RescalePartitioner<>();
    }

    @Override
    public String toString() {
        return "RESCALE";
    }
}
