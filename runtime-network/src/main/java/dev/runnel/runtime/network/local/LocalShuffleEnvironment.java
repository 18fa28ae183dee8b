package dev.runnel.runtime.network.local;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
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

    private final ConcurrentHashMap<ChannelId, LocalChannel> channels = new ConcurrentHashMap<>();
    private final int batchSize;
    private final int channelCapacity;

    public LocalShuffleEnvironment(Configuration configuration) {
        this.batchSize = configuration.get(BATCH_SIZE);
        this.channelCapacity = configuration.get(CHANNEL_CAPACITY);
        if (batchSize < 1) {
            throw new IllegalArgumentException(BATCH_SIZE.key() + " must be >= 1, was " + batchSize);
        }
        if (channelCapacity < 1) {
            throw new IllegalArgumentException(CHANNEL_CAPACITY.key() + " must be >= 1, was " + channelCapacity);
        }
    }

    @Override
    public ResultPartitionWriter createResultPartitionWriter(
            String edgeId, int producerSubtask, int[] consumerSubtasks, TaskWaker producerWaker) {
        if (consumerSubtasks.length == 0) {
            throw new IllegalArgumentException("edge " + edgeId + " subtask " + producerSubtask + " has no consumers");
        }
        LocalChannel[] ends = new LocalChannel[consumerSubtasks.length];
        for (int i = 0; i < consumerSubtasks.length; i++) {
            ends[i] = channel(new ChannelId(edgeId, producerSubtask, consumerSubtasks[i]));
            ends[i].attachProducer(producerWaker);
        }
        return new LocalResultPartitionWriter(ends, batchSize, producerWaker);
    }

    @Override
    public InputGate createInputGate(List<ChannelId> channelIds, TaskWaker consumerWaker) {
        if (channelIds.isEmpty()) {
            throw new IllegalArgumentException("an input gate needs at least one channel");
        }
        int consumer = channelIds.get(0).consumerSubtask();
        LocalChannel[] ends = new LocalChannel[channelIds.size()];
        for (int i = 0; i < ends.length; i++) {
            ChannelId id = channelIds.get(i);
            if (id.consumerSubtask() != consumer) {
                throw new IllegalArgumentException("channels of one gate must end at one consumer subtask: " + channelIds);
            }
            ends[i] = channel(id);
            ends[i].attachConsumer(consumerWaker);
        }
        return new LocalInputGate(ends);
    }

    @Override
    public void close() {
        channels.clear();
    }

    private LocalChannel channel(ChannelId id) {
        return channels.computeIfAbsent(id, key -> new LocalChannel(key, channelCapacity));
    }
}
