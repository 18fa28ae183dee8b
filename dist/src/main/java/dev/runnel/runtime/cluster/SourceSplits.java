package dev.runnel.runtime.cluster;

import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.runtime.jobgraph.ChainedOperator;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.streaming.runtime.source.SourceOperator;

/**
 * How splits cross the control plane: by the split serializer of the source they belong to, found in the job
 * graph by the source operator's id (both ends hold the graph). Stateless.
 */
public final class SourceSplits {

    private SourceSplits() {}

    /** The split serializer of source operator {@code operatorId}; fails naming the job if it has none. */
    @SuppressWarnings("unchecked")
    public static SimpleVersionedSerializer<SourceSplit> serializer(JobGraph job, String operatorId) {
        for (JobVertex vertex : job.getVertices()) {
            ChainedOperator head = vertex.getHead();
            if (head.getConfig().operatorId().equals(operatorId) && head.getOperator() instanceof SourceOperator<?, ?> source) {
                return (SimpleVersionedSerializer<SourceSplit>) source.getSource().getSplitSerializer();
            }
        }
        throw new IllegalStateException("Job '" + job.getJobName() + "' has no source operator " + operatorId);
    }
}
