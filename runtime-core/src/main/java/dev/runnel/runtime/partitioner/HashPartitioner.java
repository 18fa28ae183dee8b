package dev.runnel.runtime.partitioner;

import dev.runnel.runtime.rescale.SubtaskStateMapper;
import dev.runnel.util.MathUtils;

/**
 * Sends a record to {@code murmurHash(record.hashCode()) % numberOfChannels}: equal records meet on one
 * subtask without keyed state (no key groups). Because the channel depends on the channel count,
 * in-flight records must be re-filtered on rescale, so the downstream mapper is {@code FULL}.
 */
public final class HashPartitioner<T> extends StreamPartitioner<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public int selectChannel(T record) {
        if (record == null) {
            throw new IllegalArgumentException("The hash partitioner cannot place a null record");
        }
        return MathUtils.murmurHash(record.hashCode()) % numberOfChannels;
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
        return new HashPartitioner<>();
    }

    @Override
    public String toString() {
        return "RECORD_HASH";
    }
}
