package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;

/** Sends every record to downstream subtask 0. */
public final class GlobalPartitioner<T> extends StreamPartitioner<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public int selectChannel(T record) {
        return 0;
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return SubtaskStateMapper.FIRST;
    }

    @Override
    public StreamPartitioner<T> copy() {
        return new GlobalPartitioner<>();
    }

    @Override
    public String toString() {
        return "GLOBAL";
    }
}
