package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Round robin over all channels, starting after a random channel so that many senders do not all
 * hit channel 0 first.
 */
public final class RebalancePartitioner<T> extends StreamPartitioner<T> {

    private static final long serialVersionUID = 1L;

    private int nextChannelToSendTo;

    @Override
    public void setup(int numberOfChannels) {
        super.setup(numberOfChannels);
        nextChannelToSendTo = ThreadLocalRandom.current().nextInt(numberOfChannels);
    }

    /**
     * Sets the cursor: the next record goes to {@code (channel + 1) % numberOfChannels}. For tests
     * that need a repeatable sequence; call after {@link #setup(int)}.
     */
    public void setCursor(int channel) {
        if (channel < 0 || channel >= numberOfChannels) {
            throw new IllegalArgumentException(
                    "cursor must be in [0, " + numberOfChannels + "), was " + channel);
        }
        nextChannelToSendTo = channel;
    }

    @Override
    public int selectChannel(T record) {
        int next = nextChannelToSendTo + 1;
        if (next >= numberOfChannels) {
            next = 0;
        }
        nextChannelToSendTo = next;
        return next;
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return SubtaskStateMapper.ROUND_ROBIN;
    }

    @Override
    public StreamPartitioner<T> copy() {
        return new RebalancePartitioner<>();
    }

    @Override
    public String toString() {
        return "REBALANCE";
    }
}
