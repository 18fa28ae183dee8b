package dev.runnel.runtime.shuffle;

import java.util.Objects;

/**
 * What one channel of a consumer's input gate reads from a finished blocking partition (see
 * {@link BlockingPartitionDescriptor}): the subpartitions {@code [firstSubpartition, endSubpartition)} of one
 * producer's file, records first, then the producer's events, then its end of partition. Immutable.
 *
 * @param file the producer's data file, as its {@link BlockingPartitionDescriptor} named it
 * @param firstSubpartition the first subpartition this channel reads
 * @param endSubpartition one past the last subpartition this channel reads
 */
public record BlockingChannelDescriptor(String file, int firstSubpartition, int endSubpartition)
        implements java.io.Serializable {

    public BlockingChannelDescriptor {
        Objects.requireNonNull(file, "file");
        if (firstSubpartition < 0 || endSubpartition <= firstSubpartition) {
            throw new IllegalArgumentException("subpartition range [" + firstSubpartition + ", " + endSubpartition
                    + ") of " + file + " is empty or negative");
        }
    }
}
