package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;
import java.util.SplittableRandom;

/** Sends each record to a uniformly random channel. */
public final class ShufflePartitioner<T> extends StreamPartitioner<T> {

    private static final long serialVersionUID = 1L;

    private final SplittableRandom random;

    public ShufflePartitioner() {
        this(new SplittableRandom());
    }

    /** With a given random source, so that tests are repeatable. */
    public ShufflePartitioner(SplittableRandom random) {
        this.random = random;
    }

    @Override
    public int selectChannel(T record) {
        return random.nextInt(numberOfChannels);
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return SubtaskStateMapper.ROUND_ROBIN;
    }

    @Override
    public StreamPartitioner<T> copy() {
        return new ShufflePartitioner<>(random.split());
    }

    @Override
    public String toString() {
        return "SHUFFLE";
    }
}
