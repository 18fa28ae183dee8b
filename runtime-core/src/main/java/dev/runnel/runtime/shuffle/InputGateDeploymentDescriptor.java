package dev.runnel.runtime.shuffle;

import dev.runnel.api.common.typeutils.TypeSerializer;
import java.util.List;
import java.util.Objects;

/**
 * What a consumer subtask needs to create the receiving end of one of its inputs: the input index,
 * the serializer of the records, and every channel that ends there (from every upstream subtask, and
 * from several edges for a union), in the gate's channel order. Immutable.
 *
 * @param inputIndex 1 or 2: which input of the head operator the gate feeds
 * @param serializer the records' serializer (the same type on every edge of a union)
 * @param channels the gate's channels; channel {@code i} of the gate is {@code channels.get(i)}
 * @param blocking for a gate that reads finished blocking partitions, what channel {@code i} reads (element
 *     {@code i}); null for a gate of pipelined channels
 */
public record InputGateDeploymentDescriptor(int inputIndex, TypeSerializer<?> serializer,
        List<ChannelDescriptor> channels, List<BlockingChannelDescriptor> blocking) {

    /** A gate of pipelined channels. */
    public InputGateDeploymentDescriptor(int inputIndex, TypeSerializer<?> serializer, List<ChannelDescriptor> channels) {
        this(inputIndex, serializer, channels, null);
    }

    public InputGateDeploymentDescriptor {
        channels = List.copyOf(channels);
        if (blocking != null) {
            blocking = List.copyOf(blocking);
            if (blocking.size() != channels.size()) {
                throw new IllegalArgumentException("input " + inputIndex + " has " + channels.size()
                        + " channels but " + blocking.size() + " blocking channel descriptors");
            }
        }
        if (channels.isEmpty()) {
            throw new IllegalArgumentException("input " + inputIndex + " has no channels");
        }
        int consumer = channels.get(0).id().consumerSubtask();
        for (ChannelDescriptor channel : channels) {
            Objects.requireNonNull(channel, "channel");
            if (channel.id().consumerSubtask() != consumer) {
                throw new IllegalArgumentException("channels of one gate must end at one consumer subtask: " + channels);
            }
        }
    }

    /** Whether the gate reads finished blocking partitions from files instead of running producers. */
    public boolean isBlocking() {
        return blocking != null;
    }

    public int numberOfChannels() {
        return channels.size();
    }
}
