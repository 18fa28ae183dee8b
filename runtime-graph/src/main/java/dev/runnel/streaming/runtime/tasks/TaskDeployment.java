package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.jobgraph.ShuffleDeployment;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ResultPartitionDeploymentDescriptor;
import java.util.List;

/**
 * What one subtask runs: a job vertex of a job, its index, which attempt this is, the operator
 * prototypes in serialized form (each subtask deserializes its own copies), and the shuffle descriptors
 * of its outputs and inputs, computed by the scheduler from where every subtask was placed.
 *
 * @param job the job
 * @param vertex the vertex (operator chain)
 * @param subtaskIndex 0-based
 * @param attemptNumber 0 on the first run
 * @param serializedOperators the chain's operators, serialized, head first
 * @param resultPartitions one per outgoing edge, in {@link JobVertex#getOutputs()} order
 * @param inputGates one per input of the head operator, input 1 first
 */
public record TaskDeployment(JobGraph job, JobVertex vertex, int subtaskIndex, int attemptNumber,
        List<byte[]> serializedOperators, List<ResultPartitionDeploymentDescriptor> resultPartitions,
        List<InputGateDeploymentDescriptor> inputGates) {

    public TaskDeployment {
        serializedOperators = List.copyOf(serializedOperators);
        resultPartitions = List.copyOf(resultPartitions);
        inputGates = List.copyOf(inputGates);
        if (resultPartitions.size() != vertex.getOutputs().size()) {
            throw new IllegalArgumentException(vertex.getName() + " has " + vertex.getOutputs().size()
                    + " outgoing edges but " + resultPartitions.size() + " result partition descriptors");
        }
        if (inputGates.size() != vertex.getNumberOfInputs()) {
            throw new IllegalArgumentException(vertex.getName() + " has " + vertex.getNumberOfInputs()
                    + " inputs but " + inputGates.size() + " input gate descriptors");
        }
    }

    /** The deployment of a subtask placed by {@code placement}, with its shuffle descriptors. */
    public static TaskDeployment of(JobGraph job, JobVertex vertex, int subtaskIndex, int attemptNumber,
            List<byte[]> serializedOperators, ShuffleDeployment.Placement placement) {
        return new TaskDeployment(job, vertex, subtaskIndex, attemptNumber, serializedOperators,
                ShuffleDeployment.resultPartitions(vertex, subtaskIndex, placement),
                ShuffleDeployment.inputGates(vertex, subtaskIndex, placement));
    }

    /** Display name: {@code chain name (i/n)}. */
    public String taskNameWithSubtask() {
        return vertex.getName() + " (" + (subtaskIndex + 1) + "/" + vertex.getParallelism() + ")";
    }
}
