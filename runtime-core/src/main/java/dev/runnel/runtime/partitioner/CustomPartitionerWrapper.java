package dev.runnel.runtime.partitioner;

import dev.runnel.api.common.functions.Partitioner;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.runtime.rescale.SubtaskStateMapper;
import java.util.Objects;

/**
 * {@code partitionCustom}: a user {@link Partitioner} chooses the channel from a key extracted by a
 * {@link KeySelector}. A choice outside {@code [0, numberOfChannels)} fails with the value.
 */
public final class CustomPartitionerWrapper<K, T> extends StreamPartitioner<T> {

    private static final long serialVersionUID = 1L;

    private final Partitioner<K> partitioner;
    private final KeySelector<T, K> keySelector;

    public CustomPartitionerWrapper(Partitioner<K> partitioner, KeySelector<T, K> keySelector) {
        this.partitioner = Objects.requireNonNull(partitioner, "partitioner");
        this.keySelector = Objects.requireNonNull(keySelector, "keySelector");
    }

    @Override
    public int selectChannel(T record) {
        K key;
        try {
            key = keySelector.getKey(record);
        } catch (Exception e) {
            throw new KeyExtractionException("The key selector of partitionCustom failed on a record", e);
        }
        int channel = partitioner.partition(key, numberOfChannels);
        if (channel < 0 || channel >= numberOfChannels) {
            throw new IllegalStateException("Custom partitioner " + partitioner.getClass().getName()
                    + " returned partition " + channel + " for key '" + key + "'; it must be in [0, "
                    + numberOfChannels + ")");
        }
        return channel;
    }

    @Override
    public boolean isPointwise() {
        return false;
    }

    @Override
    public SubtaskStateMapper getDownstreamSubtaskStateMapper() {
        return SubtaskStateMapper.FULL;
    }

    @Override
    public StreamPartitioner<T> copy() {
        return new CustomPartitionerWrapper<>(partitioner, keySelector);
    }

    @Override
    public String toString() {
        return "CUSTOM";
    }
}
