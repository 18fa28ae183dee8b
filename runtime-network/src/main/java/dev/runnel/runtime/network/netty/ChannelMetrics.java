package dev.runnel.runtime.network.netty;

import dev.runnel.metrics.Counter;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.shuffle.ChannelId;

/**
 * Bytes and buffers one remote channel sent or received, registered as {@code numBytesOut}/
 * {@code numBuffersOut} or {@code numBytesIn}/{@code numBuffersIn} under the channel's group
 * ({@code <edge>.<producer>-<consumer>}). Each counter has one writing thread (the producer's task thread on
 * the sending side, the event loop on the receiving side).
 */
final class ChannelMetrics {

    private final Counter bytes;
    private final Counter buffers;

    private ChannelMetrics(MetricGroup group, String direction) {
        this.bytes = group.counter("numBytes" + direction);
        this.buffers = group.counter("numBuffers" + direction);
    }

    static ChannelMetrics sending(MetricGroup shuffleGroup, ChannelId id) {
        return new ChannelMetrics(groupOf(shuffleGroup, id), "Out");
    }

    static ChannelMetrics receiving(MetricGroup shuffleGroup, ChannelId id) {
        return new ChannelMetrics(groupOf(shuffleGroup, id), "In");
    }

    private static MetricGroup groupOf(MetricGroup shuffleGroup, ChannelId id) {
        return shuffleGroup.addGroup(id.edgeId()).addGroup(id.producerSubtask() + "-" + id.consumerSubtask());
    }

    /** One buffer of {@code byteCount} bytes went out (sending side) or came in (receiving side). */
    void count(int byteCount) {
        bytes.inc(byteCount);
        buffers.inc();
    }

    long bytes() {
        return bytes.getCount();
    }

    long buffers() {
        return buffers.getCount();
    }
}
