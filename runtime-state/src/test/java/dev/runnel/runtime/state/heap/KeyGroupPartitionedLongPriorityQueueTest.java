package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;

/** {@link KeyGroupPartitionedPriorityQueueTest} over a plain long priority: queues ordered by their heads' longs. */
class KeyGroupPartitionedLongPriorityQueueTest extends KeyGroupPartitionedPriorityQueueTest {
    @Override
    PriorityComparator<TimerHeapInternalTimer<Integer, VoidNamespace>> comparator() {
        return plainLongPriority();
    }
}
