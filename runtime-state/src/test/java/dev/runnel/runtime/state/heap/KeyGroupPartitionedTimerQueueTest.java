package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;

/**
 * {@link KeyGroupPartitionedPriorityQueueTest} over the timers' own comparator, as operators use it: the heap
 * store's buckets keep key and namespace, and polling hands out equal timers assembled from them.
 */
class KeyGroupPartitionedTimerQueueTest extends KeyGroupPartitionedPriorityQueueTest {
    @Override
    PriorityComparator<TimerHeapInternalTimer<Integer, VoidNamespace>> comparator() {
        return TimerHeapInternalTimer.byTimestamp();
    }
}
