package dev.runnel.runtime.jobgraph;

import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ResultPartitionDeploymentDescriptor;
import dev.runnel.runtime.shuffle.TaskLocation;
import dev.runnel.runtime.partitioner.DistributionPattern;
import dev.runnel.runtime.shuffle.BlockingChannelDescriptor;
import dev.runnel.runtime.shuffle.BlockingPartitionDescriptor;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
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
            if (edge.getBlocking() != null) {
                partitions.add(new ResultPartitionDeploymentDescriptor(edge.getId(), subtask, edge.getSerializer(),
                        List.of(), new BlockingPartitionDescriptor(edge.getBlocking().file(edge, subtask),
                                blockingSubpartitions(edge, subtask))));
                continue;
            }
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
            List<BlockingChannelDescriptor> blocking = new ArrayList<>();
            JobEdge first = null;
            for (JobEdge edge : vertex.getInputs()) {
                if (edge.getTargetInput() != input) {
                    continue;
                }
                if (first != null && (first.getBlocking() == null) != (edge.getBlocking() == null)) {
                    throw new IllegalStateException("input " + input + " of " + vertex.getName() + " mixes blocking and"
                            + " pipelined edges (" + first + ", " + edge + "); a gate reads one kind");
                }
                first = first == null ? edge : first;
                JobVertex source = edge.getSource();
                for (int producer : SubtaskWiring.producersOf(edge.getDistributionPattern(),
                        source.getParallelism(), vertex.getParallelism(), subtask)) {
                    channels.add(new ChannelDescriptor(new ChannelId(edge.getId(), producer, subtask),
                            placement.locate(source, producer), self));
                    if (edge.getBlocking() != null) {
                        blocking.add(blockingChannel(edge, producer, subtask));
                    }
                }
            }
            if (first == null) {
                throw new IllegalStateException("vertex " + vertex.getName() + " has no edge into input " + input);
            }
            gates.add(new InputGateDeploymentDescriptor(input, first.getSerializer(), channels,
                    first.getBlocking() == null ? null : blocking));
        }
        return gates;
    }

    /**
     * The subpartitions producer {@code producer} of blocking {@code edge} writes: the layout's count for an
     * ALL_TO_ALL edge (the consumer's max parallelism when its parallelism is still open, so any later choice
     * gets whole key groups), one per consumer for a pointwise edge, as when pipelined.
     */
    private static int blockingSubpartitions(JobEdge edge, int producer) {
        if (edge.getDistributionPattern() == DistributionPattern.ALL_TO_ALL) {
            return edge.getBlocking().subpartitions();
        }
        return SubtaskWiring.consumersOf(edge.getDistributionPattern(), edge.getSource().getParallelism(),
                edge.getTarget().getParallelism(), producer).length;
    }

    /**
     * What consumer {@code consumer} reads of producer {@code producer}'s blocking partition of {@code edge}: all
     * of it for a broadcast; its own subpartition for a pointwise edge; else the range of subpartitions that
     * Flink's key-group assignment gives operator index {@code consumer} of the consumer's parallelism over the
     * partition's subpartitions, which for a keyed edge (one subpartition per key group) is exactly the key
     * groups the consumer owns.
     */
    private static BlockingChannelDescriptor blockingChannel(JobEdge edge, int producer, int consumer) {
        String file = edge.getBlocking().file(edge, producer);
        JobVertex target = edge.getTarget();
        if (edge.getDistributionPattern() == DistributionPattern.POINTWISE) {
            int index = SubtaskWiring.subpartitionIndex(edge.getDistributionPattern(), edge.getSource().getParallelism(),
                    target.getParallelism(), producer, consumer);
            return new BlockingChannelDescriptor(file, index, index + 1);
        }
        int subpartitions = edge.getBlocking().subpartitions();
        if (edge.getPartitioner().isBroadcast()) {
            return new BlockingChannelDescriptor(file, 0, subpartitions);
        }
        if (target.getParallelism() > subpartitions) {
            throw new IllegalStateException("'" + target.getName() + "' runs at parallelism " + target.getParallelism()
                    + " but its blocking input " + edge + " has only " + subpartitions + " subpartitions");
        }
        KeyGroupRange range = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(subpartitions,
                target.getParallelism(), consumer);
        return new BlockingChannelDescriptor(file, range.getStartKeyGroup(), range.getEndKeyGroup() + 1);
    }
}
