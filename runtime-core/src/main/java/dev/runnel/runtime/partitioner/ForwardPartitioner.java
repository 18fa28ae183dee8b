package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;

/**
 * Sends every record to the one downstream subtask with the same index: the edge of an operator
 * chain. Needs equal parallelism on both sides.
 */
public class ForwardPartitioner<T> extends StreamPartitioner<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public int selectChannel(T record) {
        return 0;
    }

    @Override
    public boolean isForward() {
        return true;
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
        return new ForwardPartitioner<>();
    }

    @Override
    public String toString() {
        return "FORWARD";
    }
}
