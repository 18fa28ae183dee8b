package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/**
 * The queue of per-key-group queues, with the heap store's per-key-group set, ordered by a general
 * comparator. {@link KeyGroupPartitionedLongPriorityQueueTest} runs every test again with a long priority,
 * {@link KeyGroupPartitionedTimerQueueTest} with the timers' own comparator, the path operators use.
 */
class KeyGroupPartitionedPriorityQueueTest {

    PriorityComparator<TimerHeapInternalTimer<Integer, VoidNamespace>> comparator() {
        return TimerHeapInternalTimer::compareByTimestamp;
    }

    /** The timers' timestamp as a plain long priority (neither parted nor the timers' own comparator). */
    static PriorityComparator<TimerHeapInternalTimer<Integer, VoidNamespace>> plainLongPriority() {
        LongPriorityComparator<TimerHeapInternalTimer<Integer, VoidNamespace>> byTimestamp =
                TimerHeapInternalTimer::getTimestamp;
        return byTimestamp;
    }

    static final int KEY_GROUPS = 128;

    KeyGroupSnapshotQueue<TimerHeapInternalTimer<Integer, VoidNamespace>> queue(KeyGroupRange range) {
        return new KeyGroupPartitionedPriorityQueue<>(TimerHeapInternalTimer::getKey,
                comparator(), HeapPriorityQueueSet.factory(), range, KEY_GROUPS);
    }

    static TimerHeapInternalTimer<Integer, VoidNamespace> timer(long time, int key) {
        return new TimerHeapInternalTimer<>(time, key, VoidNamespace.INSTANCE);
    }

    static int keyGroup(int key) {
        return KeyGroupRangeAssignment.assignToKeyGroup(key, KEY_GROUPS);
    }

    /** Keys whose key groups differ, so that the test exercises several per-key-group queues. */
    static int[] keysInDistinctKeyGroups(int n) {
        int[] keys = new int[n];
        Set<Integer> groups = new HashSet<>();
        int found = 0;
        for (int k = 0; found < n; k++) {
            if (groups.add(keyGroup(k))) {
                keys[found++] = k;
            }
        }
        return keys;
    }

    @Test
    void pollsAcrossKeyGroupsInTimestampOrder() {
        var queue = queue(KeyGroupRange.of(0, KEY_GROUPS - 1));
        int[] keys = keysInDistinctKeyGroups(5);
        long[] times = {50, 10, 40, 20, 30};
        for (int i = 0; i < keys.length; i++) {
            queue.add(timer(times[i], keys[i]));
            queue.add(timer(times[i] + 100, keys[i]));
        }
        assertThat(queue.size()).isEqualTo(10);
        List<Long> polled = new ArrayList<>();
        while (!queue.isEmpty()) {
            polled.add(queue.poll().getTimestamp());
        }
        assertThat(polled).containsExactly(10L, 20L, 30L, 40L, 50L, 110L, 120L, 130L, 140L, 150L);
        assertThat(queue.poll()).isNull();
        assertThat(queue.peek()).isNull();
    }

    @Test
    void headChangedFlagsAreExactAcrossKeyGroups() {
        var queue = queue(KeyGroupRange.of(0, KEY_GROUPS - 1));
        int[] keys = keysInDistinctKeyGroups(2);
        assertThat(queue.add(timer(20, keys[0]))).isTrue();
        assertThat(queue.add(timer(20, keys[0]))).as("duplicate").isFalse();
        assertThat(queue.add(timer(30, keys[1]))).as("later, other key group").isFalse();
        assertThat(queue.add(timer(25, keys[0]))).as("later, same key group").isFalse();
        assertThat(queue.add(timer(10, keys[1]))).as("earlier, other key group").isTrue();
        assertThat(queue.remove(timer(30, keys[1]))).as("not the head").isFalse();
        assertThat(queue.remove(timer(99, keys[1]))).as("absent").isFalse();
        assertThat(queue.remove(timer(20, keys[0]))).as("head of a key group, not overall").isFalse();
        assertThat(queue.remove(timer(10, keys[1]))).as("overall head").isTrue();
        assertThat(queue.peek()).isEqualTo(timer(25, keys[0]));
        assertThat(queue.remove(timer(25, keys[0]))).isTrue();
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void subsetsAreCopiesOfOneKeyGroup() {
        var queue = queue(KeyGroupRange.of(0, KEY_GROUPS - 1));
        int[] keys = keysInDistinctKeyGroups(2);
        queue.add(timer(1, keys[0]));
        queue.add(timer(2, keys[0]));
        queue.add(timer(3, keys[1]));
        Set<TimerHeapInternalTimer<Integer, VoidNamespace>> subset = queue.getSubsetForKeyGroup(keyGroup(keys[0]));
        assertThat(subset).containsExactlyInAnyOrder(timer(1, keys[0]), timer(2, keys[0]));
        queue.poll();
        assertThat(subset).hasSize(2);
        int other = keyGroup(keys[1]);
        assertThat(queue.copyElements(KeyGroupRange.of(other, other))[0]).containsExactly(timer(3, keys[1]));
        Set<Object> all = new HashSet<>();
        queue.iterator().forEachRemaining(all::add);
        assertThat(all).containsExactlyInAnyOrder(timer(2, keys[0]), timer(3, keys[1]));
    }

    @Test
    void rejectsElementsOfOtherKeyGroups() {
        var queue = queue(KeyGroupRange.of(0, 63));
        int outside = 0;
        while (keyGroup(outside) < 64) {
            outside++;
        }
        int key = outside;
        assertThatThrownBy(() -> queue.add(timer(1, key)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key group " + keyGroup(key))
                .hasMessageContaining("startKeyGroup=0, endKeyGroup=63");
        assertThatThrownBy(() -> queue.getSubsetForKeyGroup(100)).hasMessageContaining("100");
    }

    @Test
    void randomOperationsMatchAModel() {
        Random random = new Random(7);
        var queue = queue(KeyGroupRange.of(0, KEY_GROUPS - 1));
        Set<TimerHeapInternalTimer<Integer, VoidNamespace>> model = new HashSet<>();
        TreeMap<Long, Integer> countByTime = new TreeMap<>();
        Map<Integer, Integer> perKeyGroup = new HashMap<>();
        for (int op = 0; op < 100_000; op++) {
            TimerHeapInternalTimer<Integer, VoidNamespace> head = queue.peek();
            TimerHeapInternalTimer<Integer, VoidNamespace> t = timer(random.nextInt(500), random.nextInt(2000));
            int choice = random.nextInt(10);
            // Half the changes name the key group, as the timer service does for the current key.
            boolean named = random.nextBoolean();
            if (choice < 6) {
                boolean changed = named ? queue.add(t, keyGroup(t.getKey())) : queue.add(t);
                if (model.add(t)) {
                    countByTime.merge(t.getTimestamp(), 1, Integer::sum);
                    perKeyGroup.merge(keyGroup(t.getKey()), 1, Integer::sum);
                }
                assertThat(changed).isEqualTo(head == null || !queue.peek().equals(head));
                if (changed) {
                    assertThat(queue.peek()).isEqualTo(t);
                }
            } else if (choice < 9) {
                boolean changed = named ? queue.remove(t, keyGroup(t.getKey())) : queue.remove(t);
                if (model.remove(t)) {
                    countByTime.merge(t.getTimestamp(), -1, (a, b) -> a + b == 0 ? null : a + b);
                    perKeyGroup.merge(keyGroup(t.getKey()), -1, Integer::sum);
                }
                assertThat(changed).isEqualTo(head != null && head.equals(t));
            } else if (head != null) {
                assertThat(queue.poll()).isSameAs(head);
                assertThat(model.remove(head)).isTrue();
                countByTime.merge(head.getTimestamp(), -1, (a, b) -> a + b == 0 ? null : a + b);
                perKeyGroup.merge(keyGroup(head.getKey()), -1, Integer::sum);
            }
            if (model.isEmpty()) {
                assertThat(queue.peek()).isNull();
                assertThat(queue.peekKeyGroup()).isNegative();
            } else {
                assertThat(queue.peek().getTimestamp()).isEqualTo(countByTime.firstKey());
                assertThat(queue.peekKeyGroup()).as("the head's key group").isEqualTo(keyGroup(queue.peek().getKey()));
            }
        }
        assertThat(queue.size()).isEqualTo(model.size());
        for (Map.Entry<Integer, Integer> e : perKeyGroup.entrySet()) {
            assertThat(queue.getSubsetForKeyGroup(e.getKey())).hasSize(e.getValue());
        }
        long last = Long.MIN_VALUE;
        while (!queue.isEmpty()) {
            TimerHeapInternalTimer<Integer, VoidNamespace> t = queue.poll();
            assertThat(t.getTimestamp()).isGreaterThanOrEqualTo(last);
            assertThat(model.remove(t)).isTrue();
            last = t.getTimestamp();
        }
        assertThat(model).isEmpty();
    }

    @Test
    void namesTheHeadsKeyGroupAlsoWhenItsQueuesDoNotKnowTheirs() {
        KeyGroupPartitionedPriorityQueue<TimerHeapInternalTimer<Integer, VoidNamespace>,
                HeapPriorityQueueSet<TimerHeapInternalTimer<Integer, VoidNamespace>>> queue =
                new KeyGroupPartitionedPriorityQueue<>(TimerHeapInternalTimer::getKey, comparator(),
                        (KeyGroupPartitionedPriorityQueue.PartitionQueueFactory<TimerHeapInternalTimer<Integer, VoidNamespace>,
                                HeapPriorityQueueSet<TimerHeapInternalTimer<Integer, VoidNamespace>>>)
                                (keyGroup, groups, keys, order) -> new HeapPriorityQueueSet<>(order, 0),
                        KeyGroupRange.of(0, KEY_GROUPS - 1), KEY_GROUPS);
        int[] keys = keysInDistinctKeyGroups(3);
        assertThat(queue.peekKeyGroup()).isNegative();
        queue.add(timer(30, keys[0]));
        queue.add(timer(10, keys[1]), keyGroup(keys[1]));
        queue.add(timer(20, keys[2]));
        for (int key : new int[] {keys[1], keys[2], keys[0]}) {
            assertThat(queue.peekKeyGroup()).isEqualTo(keyGroup(key));
            assertThat(queue.poll().getKey()).isEqualTo(key);
        }
        assertThat(queue.peekKeyGroup()).isNegative();
    }

    @Test
    void aNamedKeyGroupOutsideTheRangeIsRejected() {
        var queue = queue(KeyGroupRange.of(0, 63));
        assertThatThrownBy(() -> queue.add(timer(1, 1), 64))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("key group 64");
    }

    @Test
    void aTimerAtTheEndOfTimeIsFoundBehindEmptyQueues() {
        var queue = queue(KeyGroupRange.of(0, KEY_GROUPS - 1));
        int[] keys = keysInDistinctKeyGroups(3);
        queue.add(timer(Long.MAX_VALUE, keys[2]));
        queue.add(timer(5, keys[0]));
        assertThat(queue.poll().getTimestamp()).isEqualTo(5);
        assertThat(queue.isEmpty()).isFalse();
        assertThat(queue.peek().getTimestamp()).isEqualTo(Long.MAX_VALUE);
        assertThat(queue.poll().getKey()).isEqualTo(keys[2]);
        assertThat(queue.poll()).isNull();
        assertThat(queue.isEmpty()).isTrue();
    }
}
