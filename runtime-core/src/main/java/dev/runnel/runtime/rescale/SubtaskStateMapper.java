package dev.runnel.runtime.rescale;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import java.util.Arrays;

/**
 * When a job is rescaled, which old subtasks' channel state (in-flight records) each new subtask must
 * read. Every edge's partitioner names one mapper for its upstream side and one for its downstream
 * side. The constants and their results match Apache Flink's {@code SubtaskStateMapper} exactly.
 *
 * <p>Worked examples ({@code old → new}: new subtask gets old subtasks):
 * <pre>
 *   ROUND_ROBIN 10 → 4:  0 → {0,4,8}  1 → {1,5,9}  2 → {2,6}  3 → {3,7}
 *   ROUND_ROBIN  2 → 4:  0 → {0}      1 → {1}      2 → {}     3 → {}
 *   FIRST        3 → 2:  0 → {0,1,2}  1 → {}
 *   FULL         2 → 3:  0 → {0,1}    1 → {0,1}    2 → {0,1}
 *   RANGE        3 → 2:  0 → {0,1}    1 → {1,2}   (overlapping key-group ranges)
 * </pre>
 *
 * <p>A mapper is <em>ambiguous</em> when one old subtask's data may go to several new subtasks, so
 * each new subtask has to filter what it reads. Stateless and thread-safe.
 */
public enum SubtaskStateMapper {

    /** Any old subtask may go anywhere: assigned round robin. For stateless, freely-routed edges. */
    ARBITRARY {
        @Override
        public int[] getOldSubtasks(int newSubtaskIndex, int oldNumberOfSubtasks, int newNumberOfSubtasks) {
            return ROUND_ROBIN.getOldSubtasks(newSubtaskIndex, oldNumberOfSubtasks, newNumberOfSubtasks);
        }
    },

    /** Everything goes to new subtask 0, as the global partitioner sends everything to channel 0. */
    FIRST {
        @Override
        public int[] getOldSubtasks(int newSubtaskIndex, int oldNumberOfSubtasks, int newNumberOfSubtasks) {
            checkArguments(newSubtaskIndex, oldNumberOfSubtasks, newNumberOfSubtasks);
            return newSubtaskIndex == 0 ? range(0, oldNumberOfSubtasks) : EMPTY;
        }
    },

    /** Every new subtask reads every old subtask and keeps what belongs to it (custom partitioners). */
    FULL {
        @Override
        public int[] getOldSubtasks(int newSubtaskIndex, int oldNumberOfSubtasks, int newNumberOfSubtasks) {
            checkArguments(newSubtaskIndex, oldNumberOfSubtasks, newNumberOfSubtasks);
            return range(0, oldNumberOfSubtasks);
        }

        @Override
        public boolean isAmbiguous() {
            return true;
        }
    },

    /**
     * The old subtasks whose key-group ranges overlap the new subtask's range. The real max
     * parallelism is not known here, so ranges are computed over the largest one (32768), which
     * makes the overlap a superset of the true one; the reader filters by key group.
     */
    RANGE {
        @Override
        public int[] getOldSubtasks(int newSubtaskIndex, int oldNumberOfSubtasks, int newNumberOfSubtasks) {
            checkArguments(newSubtaskIndex, oldNumberOfSubtasks, newNumberOfSubtasks);
            int maxParallelism = KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM;
            KeyGroupRange newRange = KeyGroupRangeAssignment.computeKeyGroupRangeForOperatorIndex(
                    maxParallelism, newNumberOfSubtasks, newSubtaskIndex);
            int first = KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(
                    maxParallelism, oldNumberOfSubtasks, newRange.getStartKeyGroup());
            int last = KeyGroupRangeAssignment.computeOperatorIndexForKeyGroup(
                    maxParallelism, oldNumberOfSubtasks, newRange.getEndKeyGroup());
            return range(first, last + 1);
        }

        @Override
        public boolean isAmbiguous() {
            return true;
        }
    },

    /**
     * Old subtasks dealt out round robin: new subtask {@code i} gets old subtasks
     * {@code i, i + new, i + 2*new, ...}. When scaling out, the extra new subtasks get nothing.
     */
    ROUND_ROBIN {
        @Override
        public int[] getOldSubtasks(int newSubtaskIndex, int oldNumberOfSubtasks, int newNumberOfSubtasks) {
            checkArguments(newSubtaskIndex, oldNumberOfSubtasks, newNumberOfSubtasks);
            if (newNumberOfSubtasks >= oldNumberOfSubtasks) {
                return newSubtaskIndex < oldNumberOfSubtasks ? new int[] {newSubtaskIndex} : EMPTY;
            }
            int count = (oldNumberOfSubtasks - newSubtaskIndex + newNumberOfSubtasks - 1) / newNumberOfSubtasks;
            int[] old = new int[count];
            for (int i = 0; i < count; i++) {
                old[i] = newSubtaskIndex + i * newNumberOfSubtasks;
            }
            return old;
        }
    },

    /**
     * Pointwise edges (forward, rescale) tie each subtask to specific peers, so in-flight data cannot
     * be redistributed to a different parallelism. Always throws.
     */
    UNSUPPORTED {
        @Override
        public int[] getOldSubtasks(int newSubtaskIndex, int oldNumberOfSubtasks, int newNumberOfSubtasks) {
            throw new UnsupportedOperationException(
                    "Cannot rescale the in-flight data of a pointwise edge (forward or rescale partitioner) from "
                            + oldNumberOfSubtasks + " to " + newNumberOfSubtasks + " subtasks. "
                            + "If you changed an edge to forward() or rescale(), change it back, or put an explicit "
                            + "shuffle() or rebalance() on that edge so its records can be redistributed.");
        }
    };

    private static final int[] EMPTY = new int[0];

    /**
     * The old subtasks whose state or in-flight data new subtask {@code newSubtaskIndex} must read, in
     * ascending order. The returned array is fresh; the caller may keep it.
     */
    public abstract int[] getOldSubtasks(int newSubtaskIndex, int oldNumberOfSubtasks, int newNumberOfSubtasks);

    /** True when one old subtask's data may be read by several new subtasks, which then filter it. */
    public boolean isAmbiguous() {
        return false;
    }

    /** The whole mapping of a rescale: for every new subtask its old subtasks, and the inverse. */
    public RescaleMappings getNewToOldSubtasksMapping(int oldParallelism, int newParallelism) {
        int[][] newToOld = new int[newParallelism][];
        for (int newIndex = 0; newIndex < newParallelism; newIndex++) {
            newToOld[newIndex] = getOldSubtasks(newIndex, oldParallelism, newParallelism);
        }
        return RescaleMappings.of(newToOld, oldParallelism);
    }

    private static void checkArguments(int newSubtaskIndex, int oldNumberOfSubtasks, int newNumberOfSubtasks) {
        if (oldNumberOfSubtasks <= 0) {
            throw new IllegalArgumentException("oldNumberOfSubtasks must be > 0, was " + oldNumberOfSubtasks);
        }
        if (newNumberOfSubtasks <= 0) {
            throw new IllegalArgumentException("newNumberOfSubtasks must be > 0, was " + newNumberOfSubtasks);
        }
        if (newSubtaskIndex < 0 || newSubtaskIndex >= newNumberOfSubtasks) {
            throw new IllegalArgumentException("newSubtaskIndex must be in [0, newNumberOfSubtasks="
                    + newNumberOfSubtasks + "), was " + newSubtaskIndex);
        }
    }

    private static int[] range(int fromInclusive, int toExclusive) {
        int[] values = new int[Math.max(0, toExclusive - fromInclusive)];
        Arrays.setAll(values, i -> fromInclusive + i);
        return values;
    }
}
