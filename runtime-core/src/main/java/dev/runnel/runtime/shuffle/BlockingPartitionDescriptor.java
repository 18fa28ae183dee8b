package dev.runnel.runtime.shuffle;

import java.util.Objects;

/**
 * Where a producer subtask writes a <em>blocking</em> result partition: the records of one job edge go to a file
 * on local disk, sorted into {@code subpartitions} regions, and are read only after the producer finished. Used
 * by BATCH jobs whose consumers' parallelism is decided once their input is complete (the adaptive batch
 * scheduler's model, as in Flink): the producer partitions into as many subpartitions as the consumer could
 * have subtasks, and each consumer subtask later reads a range of them. Immutable.
 *
 * @param file the partition's data file; its index is beside it ({@code file + ".index"})
 * @param subpartitions how many subpartitions the producer's partitioner chooses among, at least 1
 */
public record BlockingPartitionDescriptor(String file, int subpartitions) implements java.io.Serializable {

    public BlockingPartitionDescriptor {
        Objects.requireNonNull(file, "file");
        if (subpartitions < 1) {
            throw new IllegalArgumentException("a blocking partition needs at least one subpartition, got "
                    + subpartitions + " for " + file);
        }
    }
}
