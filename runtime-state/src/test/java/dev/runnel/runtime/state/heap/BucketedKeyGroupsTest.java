package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PolledParts;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Every test of {@link KeyGroupPartitionedPriorityQueueTest} against the heap store's timer queue, one
 * {@link BucketedPriorityQueueSet} for a whole key group range whose elements carry their key group, with the
 * timers' own comparator (buckets keep key and namespace); and what only that queue does.
 */
class BucketedKeyGroupsTest extends KeyGroupPartitionedPriorityQueueTest {

    @Override
    PriorityComparator<TimerHeapInternalTimer<Integer, VoidNamespace>> comparator() {
        return TimerHeapInternalTimer.byTimestamp();
    }

    @Override
    BucketedPriorityQueueSet<TimerHeapInternalTimer<Integer, VoidNamespace>> queue(KeyGroupRange range) {
        return new BucketedPriorityQueueSet<>((LongPriorityComparator<TimerHeapInternalTimer<Integer, VoidNamespace>>)
                comparator(), TimerHeapInternalTimer::getKey, range, KEY_GROUPS);
    }

    @Test
    void equalTimersOfTwoNamedKeyGroupsAreTwoAndComeOutFirstAddedFirstOut() {
        var queue = queue(KeyGroupRange.of(0, KEY_GROUPS - 1));
        int[] keys = keysInDistinctKeyGroups(3);
        // the same timer named under two key groups (a caller that carries a key group) stays two timers
        assertThat(queue.add(timer(10, keys[0]), 5)).isTrue();
        assertThat(queue.add(timer(10, keys[0]), 6)).isFalse();
        assertThat(queue.add(timer(10, keys[0]), 5)).as("a duplicate in its key group").isFalse();
        assertThat(queue.size()).isEqualTo(2);
        queue.add(timer(10, keys[1]));
        queue.add(timer(10, keys[2]));
        assertThat(queue.remove(timer(10, keys[0]), 7)).as("not queued in key group 7").isFalse();
        assertThat(queue.contains(timer(10, keys[1]))).isTrue();
        List<Integer> groups = new ArrayList<>();
        List<Integer> polledKeys = new ArrayList<>();
        PolledParts into = new PolledParts();
        while (queue.pollUpTo(10, TimerHeapInternalTimer.byTimestamp(), into)) {
            groups.add(into.keyGroup());
            polledKeys.add((Integer) into.firstPart());
        }
        assertThat(polledKeys).containsExactly(keys[0], keys[0], keys[1], keys[2]);
        assertThat(groups).containsExactly(5, 6, keyGroup(keys[1]), keyGroup(keys[2]));
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void aSingleTimerKeepsItsKeyGroupWhenASecondOfItsTimestampMakesABucket() {
        var queue = queue(KeyGroupRange.of(0, KEY_GROUPS - 1));
        int[] keys = keysInDistinctKeyGroups(2);
        queue.add(timer(3, keys[0]), 9); // alone: its key group is kept beside its heap slot
        assertThat(queue.peekKeyGroup()).isEqualTo(9);
        queue.add(timer(3, keys[1]));
        assertThat(queue.peekKeyGroup()).as("moved into the bucket with it").isEqualTo(9);
        assertThat(queue.remove(timer(3, keys[0]))).as("its key's own group is not 9").isFalse();
        assertThat(queue.remove(timer(3, keys[0]), 9)).isTrue();
        assertThat(queue.peekKeyGroup()).isEqualTo(keyGroup(keys[1]));
    }

    @Test
    void snapshotCopiesSortTheTimersByKeyGroupOfAnyPartOfTheRange() {
        KeyGroupRange range = KeyGroupRange.of(64, 127);
        var queue = queue(range);
        Random random = new Random(3);
        List<List<TimerHeapInternalTimer<Integer, VoidNamespace>>> expected = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            expected.add(new ArrayList<>());
        }
        int added = 0;
        for (int key = 0; added < 5_000; key++) {
            if (!range.contains(keyGroup(key))) {
                continue;
            }
            // many timers of a few shared timestamps (buckets, some indexed) and some of their own (singles)
            long time = random.nextInt(4) == 0 ? 1_000 + key : random.nextInt(5);
            queue.add(timer(time, key));
            expected.get(keyGroup(key) - 64).add(timer(time, key));
            added++;
        }
        Object[][] copy = queue.copyElements(range);
        for (int i = 0; i < 64; i++) {
            assertThat(copy[i]).as("key group %d", 64 + i).containsExactlyInAnyOrderElementsOf(expected.get(i));
        }
        Object[][] part = queue.copyElements(KeyGroupRange.of(100, 101));
        assertThat(part.length).isEqualTo(2);
        assertThat(part[0]).containsExactlyInAnyOrderElementsOf(expected.get(36));
        assertThat(part[1]).containsExactlyInAnyOrderElementsOf(expected.get(37));
        assertThat(queue.getSubsetForKeyGroup(100)).containsExactlyInAnyOrderElementsOf(expected.get(36));
        assertThat(queue.size()).isEqualTo(5_000);
    }

    @Test
    void aTimerAddedByItsPartsUnderAKeyGroupOutsideTheRangeIsRejected() {
        var queue = queue(KeyGroupRange.of(0, 63));
        assertThatThrownBy(() -> queue.addParts(TimerHeapInternalTimer.byTimestamp(), 1, 1, VoidNamespace.INSTANCE,
                64)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key group 64");
        assertThat(queue.isEmpty()).isTrue();
    }
}
