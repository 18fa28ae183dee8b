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
 * @param channels the channel of each subpartition (subpartition {@code i} is {@code channels.get(i)}); empty for
 *     a blocking partition, whose consumers are not known when it is written
 * @param blocking where a blocking partition is written, or null for a pipelined one (records flow to running
 *     consumers through {@code channels})
 */
public record ResultPartitionDeploymentDescriptor(String edgeId, int producerSubtask, TypeSerializer<?> serializer,
        List<ChannelDescriptor> channels, BlockingPartitionDescriptor blocking) {

    /** A pipelined partition: one channel per subpartition. */
    public ResultPartitionDeploymentDescriptor(String edgeId, int producerSubtask, TypeSerializer<?> serializer,
            List<ChannelDescriptor> channels) {
        this(edgeId, producerSubtask, serializer, channels, null);
    }

    public ResultPartitionDeploymentDescriptor {
        Objects.requireNonNull(edgeId, "edgeId");
        channels = List.copyOf(channels);
        if (blocking != null && !channels.isEmpty()) {
            throw new IllegalArgumentException("blocking partition of edge " + edgeId + " subtask "
                    + producerSubtask + " has channels; its consumers read the file " + blocking.file());
        }
        if (blocking == null && channels.isEmpty()) {
            throw new IllegalArgumentException("edge " + edgeId + " subtask " + producerSubtask + " has no consumers");
        }
        for (ChannelDescriptor channel : channels) {
            if (!channel.id().edgeId().equals(edgeId) || channel.id().producerSubtask() != producerSubtask) {
                throw new IllegalArgumentException("channel " + channel.id() + " does not start at edge " + edgeId
                        + " subtask " + producerSubtask);
            }
        }
    }

    /** Whether records go to a file read after this producer finished, rather than to running consumers. */
    public boolean isBlocking() {
        return blocking != null;
    }

    public int numberOfSubpartitions() {
        return blocking != null ? blocking.subpartitions() : channels.size();
    }
}
