package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * An input gate for tests of what reads gates: hands out the batches queued on it, each as from its channel, in
 * the order they were queued, and keeps the batches handed back. Finished once its queue is empty. Test thread
 * only; blocking and resuming channels are not modelled.
 */
final class ScriptedInputGate implements InputGate {

    private final int channels;
    private final ArrayDeque<RecordBatch> batches = new ArrayDeque<>();
    private final ArrayDeque<Integer> channelOf = new ArrayDeque<>();
    private final List<RecordBatch> recycled = new ArrayList<>();
    private int last;

    ScriptedInputGate(int channels) {
        this.channels = channels;
    }

    /** Queues {@code batch} (records or an event) as arriving on {@code channel}. */
    ScriptedInputGate add(RecordBatch batch, int channel) {
        batches.add(batch);
        channelOf.add(channel);
        return this;
    }

    /** The batches handed back by {@link #recycle}, in order. */
    List<RecordBatch> recycled() {
        return recycled;
    }

    @Override
    public int getNumberOfInputChannels() {
        return channels;
    }

    @Override
    public RecordBatch pollNext() {
        if (batches.isEmpty()) {
            return null;
        }
        last = channelOf.poll();
        return batches.poll();
    }

    @Override
    public boolean isAvailable() {
        return !batches.isEmpty();
    }

    @Override
    public CompletableFuture<Void> getAvailableFuture() {
        return AVAILABLE;
    }

    @Override
    public int lastChannel() {
        return last;
    }

    @Override
    public void recycle(RecordBatch batch) {
        recycled.add(batch);
    }

    @Override
    public void blockChannel(int channel) {}

    @Override
    public boolean isBlocked(int channel) {
        return false;
    }

    @Override
    public void resumeAllChannels() {}

    @Override
    public boolean isFinished() {
        return batches.isEmpty();
    }

    @Override
    public void close() {}
}
