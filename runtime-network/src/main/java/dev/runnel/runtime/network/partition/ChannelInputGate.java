package dev.runnel.runtime.network.partition;

import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import java.util.concurrent.CompletableFuture;

/**
 * The receiving end of one consumer input over its channels, in memory or remote alike: polls the
 * unblocked channels round robin, so one busy producer cannot starve the others. Consumer task thread only.
 */
public final class ChannelInputGate implements InputGate {

    private final InputChannelReader[] channels;
    private final boolean[] ended;
    private final boolean[] blocked;
    private int endedCount;
    private int blockedCount;
    private int next;
    private int last = -1;

    public ChannelInputGate(InputChannelReader[] channels) {
        if (channels.length == 0) {
            throw new IllegalArgumentException("an input gate needs at least one channel");
        }
        this.channels = channels;
        this.ended = new boolean[channels.length];
        this.blocked = new boolean[channels.length];
    }

    @Override
    public int getNumberOfInputChannels() {
        return channels.length;
    }

    @Override
    public RecordBatch pollNext() {
        int n = channels.length;
        for (int i = 0; i < n; i++) {
            int index = next;
            next = index + 1 == n ? 0 : index + 1;
            if (blockedCount > 0 && blocked[index]) {
                continue;
            }
            RecordBatch element = channels[index].poll();
            if (element != null) {
                last = index;
                if (element.isEvent() && element.event().type() == ChannelEvent.Type.END_OF_PARTITION) {
                    markEnded(index);
                }
                return element;
            }
        }
        return null;
    }

    @Override
    public boolean isAvailable() {
        for (int i = 0; i < channels.length; i++) {
            if (!blocked[i] && channels[i].hasData()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public CompletableFuture<Void> getAvailableFuture() {
        if (isAvailable()) {
            return AVAILABLE;
        }
        CompletableFuture<Void> future = new CompletableFuture<>();
        for (int i = 0; i < channels.length; i++) {
            if (!blocked[i]) {
                channels[i].notifyOnData(future);
            }
        }
        // Data that arrived while registering must not be missed.
        if (isAvailable()) {
            future.complete(null);
        }
        return future;
    }

    @Override
    public int lastChannel() {
        return last;
    }

    @Override
    public void recycle(RecordBatch batch) {
        if (!batch.isEvent()) {
            channels[last].recycle(batch);
        }
    }

    @Override
    public void blockChannel(int channel) {
        if (!blocked[channel]) {
            blocked[channel] = true;
            blockedCount++;
        }
    }

    @Override
    public boolean isBlocked(int channel) {
        return blocked[channel];
    }

    @Override
    public void resumeAllChannels() {
        java.util.Arrays.fill(blocked, false);
        blockedCount = 0;
    }

    @Override
    public boolean isFinished() {
        return endedCount == channels.length;
    }

    @Override
    public void close() {
        for (InputChannelReader channel : channels) {
            channel.release();
        }
    }

    private void markEnded(int index) {
        if (ended[index]) {
            throw new IllegalStateException("channel " + channels[index].id() + " ended twice");
        }
        ended[index] = true;
        endedCount++;
    }
}
