package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;

/** {@link BucketedKeyGroupsTest} over a plain long priority: the buckets keep the timers themselves. */
class BucketedKeyGroupsWholeTest extends BucketedKeyGroupsTest {
    @Override
    PriorityComparator<TimerHeapInternalTimer<Integer, VoidNamespace>> comparator() {
        return plainLongPriority();
    }
}
