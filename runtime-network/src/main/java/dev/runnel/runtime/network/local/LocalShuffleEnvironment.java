package dev.runnel.runtime.network.local;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.network.blocking.BlockingInputGate;
import dev.runnel.runtime.network.blocking.BlockingResultPartitionWriter;
import dev.runnel.runtime.network.partition.ChannelInputGate;
import dev.runnel.runtime.network.partition.ChannelResultPartitionWriter;
import dev.runnel.runtime.network.partition.InputChannelReader;
import dev.runnel.runtime.network.partition.SubpartitionWriter;
import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ResultPartitionDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.TaskLocation;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Shuffle within one JVM: every channel is a pair of bounded lock-free rings, and records move by
 * reference in batches, without serialization. Memory per channel is bounded by
 * {@link #CHANNEL_CAPACITY} batches of {@link #BATCH_SIZE} records.
 *
 * <p>Thread-safe: producer and consumer ends may be created concurrently and in either order.
 */
public final class LocalShuffleEnvironment implements ShuffleEnvironment {

    public static final ConfigOption<Integer> BATCH_SIZE = ConfigOption.intOption("shuffle.local.batch-size", 512,
            "Records per in-memory batch; larger batches cost fewer hand-overs, smaller ones less latency.");

    public static final ConfigOption<Integer> CHANNEL_CAPACITY = ConfigOption.intOption(
            "shuffle.local.channel-capacity", 8,
            "Batches (and events) a channel holds before its producer blocks: the backpressure bound.");

    public static final ConfigOption<Integer> MAX_OVERDRAFT_BATCHES = ConfigOption.intOption(
            "shuffle.local.max-overdraft-batches", 8,
            "Batches a channel may take beyond its capacity while one record's outputs are still being written"
                    + " (a flatMap emitting many records); past that the writer waits for room.");

    private final ConcurrentHashMap<ChannelId, LocalChannel> channels = new ConcurrentHashMap<>();
    private final int batchSize;
    private final int channelCapacity;
    private final int overdraft;

    public LocalShuffleEnvironment(Configuration configuration) {
        this.batchSize = configuration.get(BATCH_SIZE);
        this.channelCapacity = configuration.get(CHANNEL_CAPACITY);
        this.overdraft = configuration.get(MAX_OVERDRAFT_BATCHES);
        requireAtLeast(BATCH_SIZE, batchSize, 1);
        requireAtLeast(CHANNEL_CAPACITY, channelCapacity, 1);
        requireAtLeast(MAX_OVERDRAFT_BATCHES, overdraft, 0);
    }

    @Override
    public String taskManagerId() {
        return TaskLocation.EMBEDDED_TASK_MANAGER;
    }

    @Override
    public java.net.InetSocketAddress dataAddress() {
        return null;
    }

    @Override
    public ResultPartitionWriter createResultPartitionWriter(
            ResultPartitionDeploymentDescriptor descriptor, TaskWaker producerWaker) {
        if (descriptor.isBlocking()) {
            return new BlockingResultPartitionWriter(descriptor);
        }
        List<ChannelDescriptor> described = descriptor.channels();
        SubpartitionWriter[] ends = new SubpartitionWriter[described.size()];
        for (int i = 0; i < ends.length; i++) {
            ends[i] = openSubpartition(requireLocal(described.get(i)), descriptor.serializer(), producerWaker);
        }
        return new ChannelResultPartitionWriter(ends);
    }

    @Override
    public InputGate createInputGate(InputGateDeploymentDescriptor descriptor, TaskWaker consumerWaker) {
        if (descriptor.isBlocking()) {
            return new BlockingInputGate(descriptor);
        }
        List<ChannelDescriptor> described = descriptor.channels();
        InputChannelReader[] ends = new InputChannelReader[described.size()];
        for (int i = 0; i < ends.length; i++) {
            ends[i] = openInputChannel(requireLocal(described.get(i)), consumerWaker);
        }
        return new ChannelInputGate(ends);
    }

    /**
     * The in-memory sending end of channel {@code id}, for a shuffle that mixes memory and network channels.
     * Mutable values are copied with {@code serializer} (null or immutable: passed by reference).
     */
    @SuppressWarnings("unchecked")
    public SubpartitionWriter openSubpartition(ChannelId id, TypeSerializer<?> serializer, TaskWaker producerWaker) {
        LocalChannel channel = channel(id);
        channel.attachProducer(producerWaker);
        TypeSerializer<Object> copier = serializer == null || serializer.isImmutableType()
                ? null : (TypeSerializer<Object>) serializer;
        return new LocalSubpartitionWriter(channel, batchSize, producerWaker, copier);
    }

    /** The in-memory receiving end of channel {@code id}, for a shuffle that mixes memory and network channels. */
    public InputChannelReader openInputChannel(ChannelId id, TaskWaker consumerWaker) {
        LocalChannel channel = channel(id);
        channel.attachConsumer(consumerWaker);
        return channel;
    }

    @Override
    public void close() {
        channels.clear();
    }

    private LocalChannel channel(ChannelId id) {
        return channels.computeIfAbsent(id, key -> new LocalChannel(key, channelCapacity, overdraft));
    }

    private static ChannelId requireLocal(ChannelDescriptor channel) {
        if (!channel.isLocal()) {
            throw new IllegalArgumentException("channel " + channel.id() + " connects " + channel.producer() + " and "
                    + channel.consumer() + ", two TaskManagers; the in-memory shuffle reaches only subtasks of one JVM."
                    + " Configure a network shuffle for jobs that span TaskManagers.");
        }
        return channel.id();
    }

    private static void requireAtLeast(ConfigOption<Integer> option, int value, int min) {
        if (value < min) {
            throw new IllegalArgumentException(option.key() + " must be >= " + min + ", was " + value);
        }
    }
}
