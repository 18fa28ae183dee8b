package dev.runnel.runtime.network.local;

import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;

/**
 * The in-memory sending end of an edge for one producer subtask: one open batch per channel, handed
 * over when full, on {@link #flushAll()}, or before an event. Task thread only.
 */
final class LocalResultPartitionWriter implements ResultPartitionWriter {

    private final LocalChannel[] channels;
    private final RecordBatch[] open;
    private final int batchSize;
    private final TaskWaker self;
    private boolean finished;

    LocalResultPartitionWriter(LocalChannel[] channels, int batchSize, TaskWaker self) {
        this.channels = channels;
        this.open = new RecordBatch[channels.length];
        this.batchSize = batchSize;
        this.self = self;
        for (int i = 0; i < channels.length; i++) {
            open[i] = new RecordBatch(batchSize);
        }
    }

    @Override
    public int getNumberOfSubpartitions() {
        return channels.length;
    }

    @Override
    public void emitRecord(Object value, long timestamp, int subpartition) throws InterruptedException {
        if (open[subpartition].add(value, timestamp)) {
            handOver(subpartition);
        }
    }

    @Override
    public void flushAll() throws InterruptedException {
        for (int i = 0; i < channels.length; i++) {
            if (!open[i].isEmpty()) {
                handOver(i);
            }
        }
    }

    @Override
    public void broadcastEvent(ChannelEvent event) throws InterruptedException {
        checkNotFinished();
        flushAll();
        for (LocalChannel channel : channels) {
            channel.send(event, self);
        }
    }

    @Override
    public void finish() throws InterruptedException {
        broadcastEvent(EndOfPartitionEvent.INSTANCE);
        finished = true;
    }

    @Override
    public void close() {
        finished = true;
    }

    private void handOver(int subpartition) throws InterruptedException {
        checkNotFinished();
        LocalChannel channel = channels[subpartition];
        channel.send(open[subpartition], self);
        RecordBatch next = channel.takeRecycled();
        open[subpartition] = next != null ? next : new RecordBatch(batchSize);
    }

    private void checkNotFinished() {
        if (finished) {
            throw new IllegalStateException("result partition already finished; nothing may be written after end of input");
        }
    }
}
