package dev.runnel.runtime.partitioner;

/**
 * How the subtasks of two connected job vertices are wired.
 *
 * <ul>
 *   <li>{@link #POINTWISE}: each upstream subtask talks to a fixed, small set of downstream subtasks
 *       (forward, rescale), following Flink's pointwise assignment.
 *   <li>{@link #ALL_TO_ALL}: every upstream subtask is connected to every downstream subtask.
 * </ul>
 */
public enum DistributionPattern {
    POINTWISE,
    ALL_TO_ALL
}
