package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;

/**
 * {@link KeyGroupPartitionedPriorityQueueTest} over the timers' own comparator, as operators hand it to a store
 * that keeps a queue per key group (RocksDB's queues have the same contract as the sets used here).
 */
class KeyGroupPartitionedTimerQueueTest extends KeyGroupPartitionedPriorityQueueTest {
    @Override
    PriorityComparator<TimerHeapInternalTimer<Integer, VoidNamespace>> comparator() {
        return TimerHeapInternalTimer.byTimestamp();
    }
}
