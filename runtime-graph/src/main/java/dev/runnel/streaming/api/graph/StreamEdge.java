package dev.runnel.streaming.api.graph;

import dev.runnel.runtime.partitioner.StreamPartitioner;
import dev.runnel.util.OutputTag;
import java.util.Objects;

/**
 * A connection between two stream nodes: records of the source's main output (or of one side
 * output) go, partitioned, into input 1 or 2 of the target.
 */
public final class StreamEdge {

    private final StreamNode source;
    private final StreamNode target;
    private final StreamPartitioner<?> partitioner;
    private final OutputTag<?> outputTag;
    private final int typeNumber;

    StreamEdge(StreamNode source, StreamNode target, StreamPartitioner<?> partitioner, OutputTag<?> outputTag,
            int typeNumber) {
        this.source = Objects.requireNonNull(source);
        this.target = Objects.requireNonNull(target);
        this.partitioner = Objects.requireNonNull(partitioner);
        this.outputTag = outputTag;
        this.typeNumber = typeNumber;
    }

    public StreamNode getSource() {
        return source;
    }

    public StreamNode getTarget() {
        return target;
    }

    public StreamPartitioner<?> getPartitioner() {
        return partitioner;
    }

    /** The side output this edge carries, or null. */
    public OutputTag<?> getOutputTag() {
        return outputTag;
    }

    /** 1 or 2: which input of the target. */
    public int getTypeNumber() {
        return typeNumber;
    }

    @Override
    public String toString() {
        return source + " -[" + partitioner + (outputTag != null ? ", " + outputTag.getId() : "") + "]-> " + target;
    }
}
