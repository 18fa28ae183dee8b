package dev.runnel.api.common.functions;

/**
 * Chooses the partition (downstream channel) for a key, for {@code DataStream.partitionCustom}.
 *
 * <p>Called on the sending task's thread for every record; must be deterministic and must return a
 * value in {@code [0, numPartitions)}, otherwise the job fails naming the partitioner and the value.
 *
 * @param <K> the type of the key the partitioner looks at
 */
@FunctionalInterface
public interface Partitioner<K> extends Function {

    /** The partition, in {@code [0, numPartitions)}, for {@code key}. */
    int partition(K key, int numPartitions);
}
