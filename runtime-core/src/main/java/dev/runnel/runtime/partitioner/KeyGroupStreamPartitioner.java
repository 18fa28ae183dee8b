package dev.runnel.runtime.partitioner;

import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.runtime.rescale.SubtaskStateMapper;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import java.util.Objects;

/**
 * The keyBy partitioner: a record goes to the subtask that owns its key's key group, exactly as
 * {@link KeyGroupRangeAssignment#assignKeyToParallelOperator} computes it, so keyed state is always
 * local to the subtask that receives the key.
 */
public final class KeyGroupStreamPartitioner<T, K> extends StreamPartitioner<T> {

    private static final long serialVersionUID = 1L;

    private final KeySelector<T, K> keySelector;
    private final int maxParallelism;
    /**
     * The channel of each key group, made by {@link #setup} from {@link KeyGroupRangeAssignment}: a load per
     * record instead of a division.
     */
    private transient int[] channelOfKeyGroup;

    public KeyGroupStreamPartitioner(KeySelector<T, K> keySelector, int maxParallelism) {
        this.keySelector = Objects.requireNonNull(keySelector, "keySelector");
        KeyGroupRangeAssignment.checkMaxParallelism(maxParallelism);
        this.maxParallelism = maxParallelism;
    }

    public KeySelector<T, K> getKeySelector() {
        return keySelector;
    }

    public int getMaxParallelism() {
        return maxParallelism;
    }

    @Override
    public void setup(int numberOfChannels) {
        KeyGroupRangeAssignment.checkParallelisms(maxParallelism, numberOfChannels);
        super.setup(numberOfChannels);
        int[] channels = new int[maxParallelism];
        for (int keyGroup = 0; keyGroup < maxParallelism; keyGroup++) {
            channels[keyGroup] = KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(
                    maxParallelism, numberOfChannels, keyGroup);
        }
        channelOfKeyGroup = channels;
    }

    @Override
    public int selectChannel(T record) {
        return channelOfKeyGroup(keyGroupOfHash(keyHash(record)));
    }

    /**
     * The hash code of {@code record}'s key, the first step of {@link #selectChannel}; the sender keeps it and
     * the key group for the consumer ({@link dev.runnel.runtime.io.ResultPartitionWriter#emitKeyedRecord}).
     *
     * @throws KeyExtractionException if the key selector fails or returns null
     */
    public int keyHash(T record) {
        K key;
        try {
            key = keySelector.getKey(record);
        } catch (Exception e) {
            throw new KeyExtractionException("The key selector of a keyBy failed on a record", e);
        }
        if (key == null) {
            throw new KeyExtractionException("The key selector of a keyBy returned null; every record needs a key", null);
        }
        return key.hashCode();
    }

    /** The key group of a key whose hash code is {@code keyHash}, as {@link KeyGroupRangeAssignment} computes it. */
    public int keyGroupOfHash(int keyHash) {
        return KeyGroupRangeAssignment.computeKeyGroupForKeyHash(keyHash, maxParallelism);
    }

    /** The channel of the subtask that owns {@code keyGroup}; after {@link #setup}. */
    public int channelOfKeyGroup(int keyGroup) {
        return channelOfKeyGroup[keyGroup];
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return SubtaskStateMapper.RANGE;
    }

    @Override
    public StreamPartitioner<T> forMaxParallelism(int newMaxParallelism) {
        return newMaxParallelism == maxParallelism ? this : new KeyGroupStreamPartitioner<>(keySelector, newMaxParallelism);
    }

    @Override
    public StreamPartitioner<T> copy() {
        return new KeyGroupStreamPartitioner<>(keySelector, maxParallelism);
    }

    @Override
    public String toString() {
        return "HASH";
    }
}
