package dev.runnel.streaming.api.transformations;

import dev.runnel.runtime.partitioner.StreamPartitioner;
import java.util.List;
import java.util.Objects;

/**
 * A change of partitioning ({@code keyBy}, {@code rebalance}, {@code broadcast}, ...). Not an operator:
 * it becomes the partitioner of the edges into the next operator.
 */
public final class PartitionTransformation<T> extends Transformation<T> {

    private final Transformation<T> input;
    private final StreamPartitioner<T> partitioner;

    public PartitionTransformation(int id, Transformation<T> input, StreamPartitioner<T> partitioner) {
        super(id, "Partition", null, DEFAULT_PARALLELISM);
        this.input = input;
        this.partitioner = Objects.requireNonNull(partitioner, "partitioner");
    }

    public StreamPartitioner<T> getPartitioner() {
        return partitioner;
    }

    public Transformation<T> getInput() {
        return input;
    }

    @Override
    public List<Transformation<?>> getInputs() {
        return List.of(input);
    }

    @Override
    public boolean hasOutputType() {
        return input.hasOutputType();
    }

    @Override
    public dev.runnel.api.common.typeinfo.TypeInformation<T> getOutputType() {
        return input.getOutputType();
    }
}
