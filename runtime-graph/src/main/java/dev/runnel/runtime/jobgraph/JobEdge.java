package dev.runnel.runtime.jobgraph;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.partitioner.DistributionPattern;
import dev.runnel.runtime.partitioner.StreamPartitioner;
import dev.runnel.util.OutputTag;
import java.io.Serializable;
import java.util.Objects;

/**
 * A physical edge between two job vertices: records of one operator of the source chain (its main
 * output, or a side output) go, partitioned, to one input of the target chain's head. The edge's
 * {@link DistributionPattern} is the partitioner's own.
 */
public final class JobEdge implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String id;
    private final JobVertex source;
    private final JobVertex target;
    private final int sourceOperatorIndex;
    private final OutputTag<?> outputTag;
    private final int targetInput;
    private final StreamPartitioner<?> partitioner;
    private final TypeSerializer<?> serializer;
    private final String sourceOperatorName;
    private final String targetOperatorName;
    private final String chainBreakReason;
    /** Null while the edge is pipelined; set by the scheduler for a BATCH job's blocking exchanges. */
    private volatile BlockingLayout blocking;

    /**
     * How a blocking exchange on this edge lies on disk: producer subtask {@code i} writes the file
     * {@code directory/<edge id>-<i>}, with {@code subpartitions} subpartitions when the edge is ALL_TO_ALL (a
     * pointwise edge has as many as the producer has consumers, as when pipelined).
     */
    public record BlockingLayout(String directory, int subpartitions) implements Serializable {

        /** The data file producer subtask {@code producer} of {@code edge} writes. */
        public String file(JobEdge edge, int producer) {
            return directory + java.io.File.separator + edge.getId() + "-" + producer;
        }
    }

    public JobEdge(String id, JobVertex source, JobVertex target, int sourceOperatorIndex, OutputTag<?> outputTag,
            int targetInput, StreamPartitioner<?> partitioner, TypeSerializer<?> serializer,
            String sourceOperatorName, String targetOperatorName, String chainBreakReason) {
        this.id = Objects.requireNonNull(id);
        this.source = Objects.requireNonNull(source);
        this.target = Objects.requireNonNull(target);
        this.sourceOperatorIndex = sourceOperatorIndex;
        this.outputTag = outputTag;
        this.targetInput = targetInput;
        this.partitioner = Objects.requireNonNull(partitioner);
        this.serializer = serializer;
        this.sourceOperatorName = sourceOperatorName;
        this.targetOperatorName = targetOperatorName;
        this.chainBreakReason = chainBreakReason;
    }

    public String getId() {
        return id;
    }

    public JobVertex getSource() {
        return source;
    }

    public JobVertex getTarget() {
        return target;
    }

    /** Which operator of the source chain emits into this edge. */
    public int getSourceOperatorIndex() {
        return sourceOperatorIndex;
    }

    /** The side output this edge carries, or null for the main output. */
    public OutputTag<?> getOutputTag() {
        return outputTag;
    }

    /** 1 or 2: the input of the target's head operator. */
    public int getTargetInput() {
        return targetInput;
    }

    public StreamPartitioner<?> getPartitioner() {
        return partitioner;
    }

    public DistributionPattern getDistributionPattern() {
        return partitioner.getDistributionPattern();
    }

    /** Serializer of the records (for copies and the network). */
    public TypeSerializer<?> getSerializer() {
        return serializer;
    }

    public String getSourceOperatorName() {
        return sourceOperatorName;
    }

    public String getTargetOperatorName() {
        return targetOperatorName;
    }

    /** Why the two operators are not chained, in words (for the plan). */
    public String getChainBreakReason() {
        return chainBreakReason;
    }

    /** The layout of this edge's blocking exchange, or null when records flow pipelined to running consumers. */
    public BlockingLayout getBlocking() {
        return blocking;
    }

    /**
     * Makes the edge a blocking exchange laid out as {@code layout} (null: pipelined again). Only the scheduler
     * calls it, before the producers of an attempt deploy.
     */
    public void setBlocking(BlockingLayout layout) {
        this.blocking = layout;
    }

    @Override
    public String toString() {
        return source.getName() + " -[" + partitioner + "/" + getDistributionPattern() + "]-> " + target.getName();
    }
}
