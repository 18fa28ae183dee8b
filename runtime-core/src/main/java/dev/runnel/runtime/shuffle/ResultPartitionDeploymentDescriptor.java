package dev.runnel.runtime.shuffle;

import dev.runnel.api.common.typeutils.TypeSerializer;
import java.util.List;
import java.util.Objects;

/**
 * What a producer subtask needs to create the sending end of one job edge: the edge, the serializer of
 * its records (to copy them in memory or write them to the network), and one channel per subpartition,
 * in subpartition order. Immutable; the serializer is a prototype the writer may duplicate.
 *
 * @param edgeId the job edge
 * @param producerSubtask the producing subtask's index
 * @param serializer the records' serializer; null only when the edge carries no records of a known type
 * @param channels the channel of each subpartition (subpartition {@code i} is {@code channels.get(i)})
 */
public record ResultPartitionDeploymentDescriptor(
        String edgeId, int producerSubtask, TypeSerializer<?> serializer, List<ChannelDescriptor> channels) {

    public ResultPartitionDeploymentDescriptor {
        Objects.requireNonNull(edgeId, "edgeId");
        channels = List.copyOf(channels);
        if (channels.isEmpty()) {
            throw new IllegalArgumentException("edge " + edgeId + " subtask " + producerSubtask + " has no consumers");
        }
        for (ChannelDescriptor channel : channels) {
            if (!channel.id().edgeId().equals(edgeId) || channel.id().producerSubtask() != producerSubtask) {
                throw new IllegalArgumentException("channel " + channel.id() + " does not start at edge " + edgeId
                        + " subtask " + producerSubtask);
            }
        }
    }

    public int numberOfSubpartitions() {
        return channels.size();
    }
}
