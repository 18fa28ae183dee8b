package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;
import java.util.Objects;

/**
 * Placeholder for a hash edge that follows another hash edge on the same key: when both sides keep
 * the same parallelism the records are already on the right subtask, so the edge can be forward;
 * otherwise it must stay the wrapped hash partitioner. Resolved before execution, like
 * {@link ForwardForUnspecifiedPartitioner}.
 */
public final class ForwardForConsecutiveHashPartitioner<T> extends ForwardPartitioner<T> {

    private static final long serialVersionUID = 1L;

    private final StreamPartitioner<T> hashPartitioner;

    public ForwardForConsecutiveHashPartitioner(StreamPartitioner<T> hashPartitioner) {
        this.hashPartitioner = Objects.requireNonNull(hashPartitioner, "hashPartitioner");
    }

    /** The wrapped partitioner used when the edge cannot be forward. */
    public StreamPartitioner<T> getHashPartitioner() {
        return hashPartitioner;
    }

    /** Forward when the parallelisms are equal, else the wrapped hash partitioner. */
    public StreamPartitioner<T> resolve(int upstreamParallelism, int downstreamParallelism) {
        return upstreamParallelism == downstreamParallelism ? new ForwardPartitioner<>() : hashPartitioner.copy();
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        throw new RuntimeException("ForwardForConsecutiveHashPartitioner is a placeholder that the stream graph "
                + "replaces before execution; it has no state mapper of its own.");
    }

    @Override
    public StreamPartitioner<T> copy() {
        return new ForwardForConsecutiveHashPartitioner<>(hashPartitioner.copy());
    }
}
