package dev.runnel.runtime.jobgraph;

import dev.runnel.runtime.partitioner.DistributionPattern;
import java.util.stream.IntStream;

/**
 * Expands a job edge into subtask-to-subtask channels, exactly as Apache Flink wires an execution
 * graph. ALL_TO_ALL connects every pair. POINTWISE gives each subtask a contiguous block of peers:
 *
 * <pre>
 *   2 → 4:  a0 → b0,b1    a1 → b2,b3          (each producer fans out to a block)
 *   4 → 2:  a0,a1 → b0    a2,a3 → b1          (each consumer reads a block)
 *   3 → 2:  a0 → b0       a1 → b0   a2 → b1   (blocks from floor(i * up / down))
 * </pre>
 *
 * Consumer lists are ascending; see {@link #subpartitionIndex} for which subpartition each reads.
 * Pure functions; thread-safe.
 */
public final class SubtaskWiring {

    private SubtaskWiring() {}

    /** The consumer subtasks producer {@code producer} sends to, ascending (its subpartitions, in order). */
    public static int[] consumersOf(DistributionPattern pattern, int upstream, int downstream, int producer) {
        check(upstream, downstream, producer, "producer");
        if (pattern == DistributionPattern.ALL_TO_ALL) {
            return IntStream.range(0, downstream).toArray();
        }
        if (upstream == downstream) {
            return new int[] {producer};
        }
        if (upstream > downstream) {
            // Each consumer reads the producers [c*up/down, (c+1)*up/down); find the one holding producer.
            for (int consumer = 0; consumer < downstream; consumer++) {
                int start = (int) ((long) consumer * upstream / downstream);
                int end = (int) ((long) (consumer + 1) * upstream / downstream);
                if (producer >= start && producer < end) {
                    return new int[] {consumer};
                }
            }
            throw new AssertionError("producer " + producer + " unassigned");
        }
        int start = (int) (((long) producer * downstream + upstream - 1) / upstream);
        int end = (int) (((long) (producer + 1) * downstream + upstream - 1) / upstream);
        return IntStream.range(start, end).toArray();
    }

    /** The producer subtasks consumer {@code consumer} reads from, ascending. */
    public static int[] producersOf(DistributionPattern pattern, int upstream, int downstream, int consumer) {
        check(downstream, upstream, consumer, "consumer");
        if (pattern == DistributionPattern.ALL_TO_ALL) {
            return IntStream.range(0, upstream).toArray();
        }
        if (upstream == downstream) {
            return new int[] {consumer};
        }
        if (upstream > downstream) {
            int start = (int) ((long) consumer * upstream / downstream);
            int end = (int) ((long) (consumer + 1) * upstream / downstream);
            return IntStream.range(start, end).toArray();
        }
        for (int producer = 0; producer < upstream; producer++) {
            int start = (int) (((long) producer * downstream + upstream - 1) / upstream);
            int end = (int) (((long) (producer + 1) * downstream + upstream - 1) / upstream);
            if (consumer >= start && consumer < end) {
                return new int[] {producer};
            }
        }
        throw new AssertionError("consumer " + consumer + " unassigned");
    }

    /**
     * The index of the subpartition of producer {@code producer} that {@code consumer} reads. As in
     * Flink, it is {@code consumer % numberOfSubpartitions}, which for a pointwise fan-out is not
     * always the consumer's position in the ascending list (2 → 5: producer 1 feeds b3 from
     * subpartition 1 and b4 from subpartition 0).
     */
    public static int subpartitionIndex(DistributionPattern pattern, int upstream, int downstream, int producer,
            int consumer) {
        int[] consumers = consumersOf(pattern, upstream, downstream, producer);
        for (int c : consumers) {
            if (c == consumer) {
                return consumer % consumers.length;
            }
        }
        throw new IllegalArgumentException("producer " + producer + " does not feed consumer " + consumer);
    }

    /** The consumers of producer {@code producer} indexed by subpartition: element {@code k} reads subpartition {@code k}. */
    public static int[] consumersBySubpartition(DistributionPattern pattern, int upstream, int downstream, int producer) {
        int[] consumers = consumersOf(pattern, upstream, downstream, producer);
        int[] bySubpartition = new int[consumers.length];
        for (int c : consumers) {
            bySubpartition[c % consumers.length] = c;
        }
        return bySubpartition;
    }

    private static void check(int count, int otherCount, int index, String what) {
        if (count <= 0 || otherCount <= 0) {
            throw new IllegalArgumentException("parallelisms must be positive, got " + count + " and " + otherCount);
        }
        if (index < 0 || index >= count) {
            throw new IllegalArgumentException(what + " index " + index + " outside [0, " + count + ")");
        }
    }
}
