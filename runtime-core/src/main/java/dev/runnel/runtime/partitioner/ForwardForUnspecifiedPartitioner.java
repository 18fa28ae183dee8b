package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;

/**
 * Placeholder for an edge whose user gave no partitioner. The stream graph resolves it, once both
 * parallelisms are final, to {@link ForwardPartitioner} when they are equal and to
 * {@link RebalancePartitioner} otherwise (Flink's default). It never reaches a running task, so asking
 * it for a downstream state mapper is an error.
 */
public final class ForwardForUnspecifiedPartitioner<T> extends ForwardPartitioner<T> {

    private static final long serialVersionUID = 1L;

    /** The partitioner this placeholder stands for between the given parallelisms. */
    public StreamPartitioner<T> resolve(int upstreamParallelism, int downstreamParallelism) {
        return upstreamParallelism == downstreamParallelism
                ? new ForwardPartitioner<>()
                : new RebalancePartitioner<>();
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        throw new RuntimeException("ForwardForUnspecifiedPartitioner is a placeholder that the stream graph "
                + "replaces before execution; it has no state mapper of its own.");
    }

    @Override
    public StreamPartitioner<T> copy() {
        return new ForwardForUnspecifiedPartitioner<>();
    }
}
