package dev.runnel.runtime.state.queue;

import java.util.Set;

/**
 * A priority queue whose elements belong to key groups, so that the elements of one key group can be
 * snapshotted and moved to another subtask on rescale.
 */
public interface KeyGroupedInternalPriorityQueue<T> extends InternalPriorityQueue<T> {

    /** A snapshot of the elements of {@code keyGroupId} (a copy; later changes do not show). */
    Set<T> getSubsetForKeyGroup(int keyGroupId);
}
