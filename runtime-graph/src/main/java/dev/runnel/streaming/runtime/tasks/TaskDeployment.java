package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;

/**
 * What one subtask runs: a job vertex of a job, its index, which attempt this is, and the operator
 * prototypes in serialized form (each subtask deserializes its own copies).
 *
 * @param job the job
 * @param vertex the vertex (operator chain)
 * @param subtaskIndex 0-based
 * @param attemptNumber 0 on the first run
 * @param serializedOperators the chain's operators, serialized, head first
 */
public record TaskDeployment(JobGraph job, JobVertex vertex, int subtaskIndex, int attemptNumber,
        java.util.List<byte[]> serializedOperators) {

    /** Display name: {@code chain name (i/n)}. */
    public String taskNameWithSubtask() {
        return vertex.getName() + " (" + (subtaskIndex + 1) + "/" + vertex.getParallelism() + ")";
    }
}
