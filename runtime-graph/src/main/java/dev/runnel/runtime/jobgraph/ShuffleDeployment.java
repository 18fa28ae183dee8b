package dev.runnel.runtime.jobgraph;

import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ResultPartitionDeploymentDescriptor;
import dev.runnel.runtime.shuffle.TaskLocation;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns a job graph and a placement of its subtasks into the shuffle descriptors each subtask is deployed
 * with: its result partitions (one per outgoing edge) and its input gates (one per input of its head). The
 * wiring is {@link SubtaskWiring}'s, which matches Flink's; the scheduler computes this once per deployment
 * so a task needs neither the whole graph nor the placement of other subtasks. Stateless.
 */
public final class ShuffleDeployment {

    /** Where each subtask of a job runs. Must answer for every vertex and subtask of the job. */
    @FunctionalInterface
    public interface Placement {
        TaskLocation locate(JobVertex vertex, int subtask);
    }

    private ShuffleDeployment() {}

    /** One descriptor per outgoing edge of {@code vertex}, in {@link JobVertex#getOutputs()} order. */
    public static List<ResultPartitionDeploymentDescriptor> resultPartitions(
            JobVertex vertex, int subtask, Placement placement) {
        TaskLocation self = placement.locate(vertex, subtask);
        List<ResultPartitionDeploymentDescriptor> partitions = new ArrayList<>();
        for (JobEdge edge : vertex.getOutputs()) {
            JobVertex target = edge.getTarget();
            int[] consumers = SubtaskWiring.consumersBySubpartition(edge.getDistributionPattern(),
                    vertex.getParallelism(), target.getParallelism(), subtask);
            List<ChannelDescriptor> channels = new ArrayList<>(consumers.length);
            for (int consumer : consumers) {
                channels.add(new ChannelDescriptor(new ChannelId(edge.getId(), subtask, consumer), self,
                        placement.locate(target, consumer)));
            }
            partitions.add(new ResultPartitionDeploymentDescriptor(edge.getId(), subtask, edge.getSerializer(), channels));
        }
        return partitions;
    }

    /**
     * One descriptor per input of the head of {@code vertex} (input 1 first); each gate holds the channels
     * of every edge into that input, edge by edge in {@link JobVertex#getInputs()} order.
     */
    public static List<InputGateDeploymentDescriptor> inputGates(JobVertex vertex, int subtask, Placement placement) {
        TaskLocation self = placement.locate(vertex, subtask);
        List<InputGateDeploymentDescriptor> gates = new ArrayList<>();
        for (int input = 1; input <= vertex.getNumberOfInputs(); input++) {
            List<ChannelDescriptor> channels = new ArrayList<>();
            JobEdge first = null;
            for (JobEdge edge : vertex.getInputs()) {
                if (edge.getTargetInput() != input) {
                    continue;
                }
                first = first == null ? edge : first;
                JobVertex source = edge.getSource();
                for (int producer : SubtaskWiring.producersOf(edge.getDistributionPattern(),
                        source.getParallelism(), vertex.getParallelism(), subtask)) {
                    channels.add(new ChannelDescriptor(new ChannelId(edge.getId(), producer, subtask),
                            placement.locate(source, producer), self));
                }
            }
            if (first == null) {
                throw new IllegalStateException("vertex " + vertex.getName() + " has no edge into input " + input);
            }
            gates.add(new InputGateDeploymentDescriptor(input, first.getSerializer(), channels));
        }
        return gates;
    }
}
