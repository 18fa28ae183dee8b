package dev.runnel.runtime.network.local;

import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;

/**
 * The in-memory receiving end of one consumer input: polls its channels round robin, so one busy
 * producer cannot starve the others. Consumer task thread only.
 */
final class LocalInputGate implements InputGate {

    private final LocalChannel[] channels;
    private final boolean[] ended;
    private int endedCount;
    private int next;
    private int last = -1;

    LocalInputGate(LocalChannel[] channels) {
        this.channels = channels;
        this.ended = new boolean[channels.length];
    }

    @Override
    public int getNumberOfInputChannels() {
        return channels.length;
    }

    @Override
    public Object pollNext() {
        int n = channels.length;
        for (int i = 0; i < n; i++) {
            int index = next;
            next = index + 1 == n ? 0 : index + 1;
            Object element = channels[index].poll();
            if (element != null) {
                last = index;
                if (element == EndOfPartitionEvent.INSTANCE) {
                    markEnded(index);
                }
                return element;
            }
        }
        return null;
    }

    @Override
    public boolean isAvailable() {
        for (LocalChannel channel : channels) {
            if (channel.hasData()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public int lastChannel() {
        return last;
    }

    @Override
    public void recycle(RecordBatch batch) {
        channels[last].recycle(batch);
    }

    @Override
    public boolean isFinished() {
        return endedCount == channels.length;
    }

    @Override
    public void close() {
        // Nothing to release: channels are owned by the environment and die with the job.
    }

    private void markEnded(int index) {
        if (ended[index]) {
            throw new IllegalStateException("channel " + channels[index].id() + " ended twice");
        }
        ended[index] = true;
        endedCount++;
    }
}
