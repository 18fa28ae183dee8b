package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.heap.HeapPriorityQueueTest.Element;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PartedLongPriority;
import dev.runnel.runtime.state.queue.PolledParts;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.LinkedHashSet;
import java.util.concurrent.TimeUnit;
import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.ToLongFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The heap store's timer queue of a key group range: buckets of equal priority in a heap of buckets. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BucketedPriorityQueueSetTest {

    private static final int KEY_GROUPS = 128;
    private static final KeyGroupRange ALL = KeyGroupRange.of(0, KEY_GROUPS - 1);

    private static BucketedPriorityQueueSet<Element> newQueue() {
        return new BucketedPriorityQueueSet<>(e -> e.priority, e -> e.id, ALL, KEY_GROUPS);
    }

    /** A queue of timers of all key groups, ordered by {@code priority} (the timers' own, or one counting them). */
    private static BucketedPriorityQueueSet<TimerHeapInternalTimer<Integer, String>> timerQueue(
            LongPriorityComparator<TimerHeapInternalTimer<Integer, String>> priority) {
        return new BucketedPriorityQueueSet<>(priority, TimerHeapInternalTimer::getKey, ALL, KEY_GROUPS);
    }

    private static int keyGroup(Object key) {
        return KeyGroupRangeAssignment.assignToKeyGroup(key, KEY_GROUPS);
    }

    @Test
    void equalPrioritiesComeOutInTheOrderTheyWereAdded() {
        BucketedPriorityQueueSet<Element> queue = newQueue();
        // Interleave two priorities; within each, ids were added in this order.
        int[] ids = {7, 3, 9, 1, 40, 22, 5, 18, 2, 31, 11, 60, 13, 8, 27, 4, 19, 50, 6, 12};
        for (int id : ids) {
            queue.add(new Element(id % 2 == 0 ? 200 : 100, id));
        }
        List<Integer> odd = new ArrayList<>();
        List<Integer> even = new ArrayList<>();
        for (int id : ids) {
            (id % 2 == 0 ? even : odd).add(id);
        }
        List<Integer> expected = new ArrayList<>(odd);
        expected.addAll(even);
        List<Integer> polled = new ArrayList<>();
        Element e;
        while ((e = queue.poll()) != null) {
            polled.add(e.id);
            assertThat(e.getInternalIndex()).isEqualTo(HeapPriorityQueueElement.NOT_CONTAINED);
        }
        assertThat(polled).isEqualTo(expected);
        assertThat(queue.isEmpty()).isTrue();
    }

    @Test
    void reportsHeadChangesAndDeduplicates() {
        BucketedPriorityQueueSet<Element> queue = newQueue();
        assertThat(queue.headPriority()).isEqualTo(Long.MAX_VALUE);
        assertThat(queue.add(new Element(50, 1))).as("first element is the head").isTrue();
        assertThat(queue.add(new Element(50, 2))).as("same priority queues behind the head").isFalse();
        assertThat(queue.add(new Element(60, 3))).isFalse();
        assertThat(queue.add(new Element(40, 4))).as("a smaller priority is the new head").isTrue();
        assertThat(queue.add(new Element(40, 4))).as("an equal element changes nothing").isFalse();
        assertThat(queue.size()).isEqualTo(4);
        assertThat(queue.headPriority()).isEqualTo(40);
        assertThat(queue.contains(new Element(50, 2))).isTrue();
        assertThat(queue.contains(new Element(50, 9))).isFalse();

        assertThat(queue.remove(new Element(50, 2))).as("not the head").isFalse();
        assertThat(queue.remove(new Element(50, 2))).as("already gone").isFalse();
        assertThat(queue.remove(new Element(40, 4))).as("the head").isTrue();
        assertThat(queue.peek().id).isEqualTo(1);
        assertThat(queue.remove(new Element(50, 1))).as("the head, emptying its bucket").isTrue();
        assertThat(queue.peek().id).isEqualTo(3);
        assertThat(queue.size()).isEqualTo(1);
    }

    @Test
    void largeBucketsDeduplicateThroughTheirIndexAndSurviveCompaction() {
        BucketedPriorityQueueSet<Element> queue = newQueue();
        int n = 5_000;
        for (int id = 0; id < n; id++) {
            assertThat(queue.add(new Element(7, id))).isEqualTo(id == 0);
        }
        for (int id = 0; id < n; id++) {
            assertThat(queue.add(new Element(7, id))).isFalse();
        }
        assertThat(queue.size()).isEqualTo(n);
        // Remove every third, poll a few hundred from the front, then add more so the bucket compacts.
        for (int id = 0; id < n; id += 3) {
            assertThat(queue.remove(new Element(7, id))).isEqualTo(id == 0);
        }
        List<Integer> polled = new ArrayList<>();
        for (int i = 0; i < 300; i++) {
            polled.add(queue.poll().id);
        }
        for (int id = n; id < 2 * n; id++) {
            queue.add(new Element(7, id));
        }
        List<Integer> expected = new ArrayList<>();
        for (int id = 0; id < 2 * n; id++) {
            if (id >= n || id % 3 != 0) {
                expected.add(id);
            }
        }
        Element e;
        while ((e = queue.poll()) != null) {
            polled.add(e.id);
        }
        assertThat(polled).isEqualTo(expected);
    }

    @Test
    void randomOperationsMatchAModel() {
        randomOperations(newQueue(), random -> new Element(random.nextInt(40), random.nextInt(200)), e -> e.priority);
    }

    @Test
    void timersKeptAsKeyAndNamespaceMatchTheModelToo() {
        // The timers' own comparator: buckets keep key and namespace, poll and peek assemble equal timers.
        BucketedPriorityQueueSet<TimerHeapInternalTimer<Integer, String>> queue =
                timerQueue(TimerHeapInternalTimer.byTimestamp());
        randomOperations(queue,
                random -> new TimerHeapInternalTimer<>(random.nextInt(40), random.nextInt(200), "w" + random.nextInt(3)),
                TimerHeapInternalTimer::getTimestamp);
    }

    @Test
    void timersAddedByTheirPartsMatchTheModelToo() {
        // Half of the adds by parts (no timer object unless it is kept whole), half as timers: one queue.
        BucketedPriorityQueueSet<TimerHeapInternalTimer<Integer, String>> queue =
                timerQueue(TimerHeapInternalTimer.byTimestamp());
        assertThat(queue.keepsParts()).isTrue();
        Random coin = new Random(7);
        randomOperations(queue,
                random -> new TimerHeapInternalTimer<>(random.nextInt(40), random.nextInt(200), "w" + random.nextInt(3)),
                TimerHeapInternalTimer::getTimestamp,
                (q, timer) -> coin.nextBoolean() ? q.add(timer)
                        : q.addParts(TimerHeapInternalTimer.byTimestamp(), timer.getTimestamp(), timer.getKey(),
                                timer.getNamespace(), keyGroup(timer.getKey())));
    }

    @Test
    void whilePrioritiesAreSharedANewOneStartsAsABucketAndTimersOfTheirOwnStaySingle() {
        CountingParts parts = new CountingParts();
        BucketedPriorityQueueSet<TimerHeapInternalTimer<Integer, String>> queue = timerQueue(parts);
        // timers of their own timestamps: each kept whole, so made once as it is added
        for (int t = 0; t < 5; t++) {
            queue.addParts(parts, t, t, "p", keyGroup(t));
        }
        assertThat(parts.assembled).isEqualTo(5);
        for (int t = 0; t < 5; t++) {
            assertThat(queue.poll().getTimestamp()).isEqualTo(t);
        }
        // a window's timers: the first of its end sits alone until the second comes
        queue.addParts(parts, 100, 1, "w1", keyGroup(1));
        queue.addParts(parts, 100, 2, "w1", keyGroup(2));
        assertThat(parts.assembled).isEqualTo(6);
        polledParts(queue, 100, 2);
        // the next window's first timer starts a bucket: nothing made to add it
        queue.addParts(parts, 200, 1, "w2", keyGroup(1));
        queue.addParts(parts, 200, 2, "w2", keyGroup(2));
        assertThat(parts.assembled).as("assembled to add the next window's timers").isEqualTo(6);
        polledParts(queue, 200, 2);
        // a bucket that stayed alone with its one timer turns it off again
        queue.addParts(parts, 300, 1, "w3", keyGroup(1));
        polledParts(queue, 300, 1);
        queue.addParts(parts, 400, 1, "p", keyGroup(1));
        assertThat(parts.assembled).as("a timer of its own timestamp kept whole again").isEqualTo(7);
        assertThat(queue.poll()).isEqualTo(new TimerHeapInternalTimer<>(400, 1, "p"));
        assertThat(queue.isEmpty()).isTrue();
    }

    private static void polledParts(BucketedPriorityQueueSet<TimerHeapInternalTimer<Integer, String>> queue,
            long priority, int count) {
        PolledParts into = new PolledParts();
        for (int i = 1; i <= count; i++) {
            assertThat(queue.pollParts(into)).isTrue();
            assertThat(into.priority()).isEqualTo(priority);
            assertThat(into.firstPart()).as("first in, first out").isEqualTo(i);
        }
    }

    /** The timers' parted priority, counting the timers it assembles. */
    private static final class CountingParts
            implements PartedLongPriority<TimerHeapInternalTimer<Integer, String>> {
        private final PartedLongPriority<TimerHeapInternalTimer<Integer, String>> timers =
                TimerHeapInternalTimer.byTimestamp();
        int assembled;

        @Override
        public long priorityOf(TimerHeapInternalTimer<Integer, String> timer) {
            return timers.priorityOf(timer);
        }

        @Override
        public Object firstPart(TimerHeapInternalTimer<Integer, String> timer) {
            return timers.firstPart(timer);
        }

        @Override
        public Object secondPart(TimerHeapInternalTimer<Integer, String> timer) {
            return timers.secondPart(timer);
        }

        @Override
        public TimerHeapInternalTimer<Integer, String> assemble(long priority, Object firstPart, Object secondPart) {
            assembled++;
            return timers.assemble(priority, firstPart, secondPart);
        }

        @Override
        public int hashOf(long priority, Object firstPart, Object secondPart) {
            return timers.hashOf(priority, firstPart, secondPart);
        }
    }

    @Test
    void anAssembledHeadIsPeekedAsOneObjectAndPolledAsIt() {
        BucketedPriorityQueueSet<TimerHeapInternalTimer<Integer, String>> queue =
                timerQueue(TimerHeapInternalTimer.byTimestamp());
        TimerHeapInternalTimer<Integer, String> first = new TimerHeapInternalTimer<>(5, 1, "w");
        queue.add(first);
        queue.add(new TimerHeapInternalTimer<>(5, 2, "w"));
        queue.add(new TimerHeapInternalTimer<>(5, 3, "w"));
        TimerHeapInternalTimer<Integer, String> peeked = queue.peek();
        assertThat(peeked).isEqualTo(first).isNotSameAs(first).hasSameHashCodeAs(first);
        queue.add(new TimerHeapInternalTimer<>(5, 4, "w")); // behind the head: the head stays
        assertThat(queue.peek()).isSameAs(peeked);
        assertThat(queue.poll()).isSameAs(peeked);
        assertThat(queue.peek()).isEqualTo(new TimerHeapInternalTimer<>(5, 2, "w"));
        assertThat(queue.remove(new TimerHeapInternalTimer<>(5, 2, "w"))).as("removing the head").isTrue();
        assertThat(queue.peek()).isEqualTo(new TimerHeapInternalTimer<>(5, 3, "w"));
        queue.add(new TimerHeapInternalTimer<>(4, 9, "w"));
        assertThat(queue.poll()).isEqualTo(new TimerHeapInternalTimer<>(4, 9, "w"));
        assertThat(queue.poll()).isEqualTo(new TimerHeapInternalTimer<>(5, 3, "w"));
        assertThat(queue.poll()).isEqualTo(new TimerHeapInternalTimer<>(5, 4, "w"));
        assertThat(queue.poll()).isNull();
    }

    private static <E extends HeapPriorityQueueElement> void randomOperations(
            BucketedPriorityQueueSet<E> queue, Function<Random, E> elements, ToLongFunction<E> priorityOf) {
        randomOperations(queue, elements, priorityOf, BucketedPriorityQueueSet::add);
    }

    /** @param add how an element is added: returns whether it became the head */
    private static <E extends HeapPriorityQueueElement> void randomOperations(BucketedPriorityQueueSet<E> queue,
            Function<Random, E> elements, ToLongFunction<E> priorityOf, BiPredicate<BucketedPriorityQueueSet<E>, E> add) {
        Random random = new Random(42);
        // Model: priority -> elements in the order they were added.
        TreeMap<Long, LinkedHashSet<E>> model = new TreeMap<>();
        int size = 0;
        for (int op = 0; op < 300_000; op++) {
            int kind = random.nextInt(10);
            E element = elements.apply(random);
            long priority = priorityOf.applyAsLong(element);
            if (kind < 5) {
                E head = size == 0 ? null : model.firstEntry().getValue().iterator().next();
                boolean added = model.computeIfAbsent(priority, p -> new LinkedHashSet<>()).add(element);
                E newHead = model.firstEntry().getValue().iterator().next();
                size += added ? 1 : 0;
                assertThat(add.test(queue, element)).isEqualTo(added && newHead != head);
            } else if (kind < 7) {
                E head = size == 0 ? null : model.firstEntry().getValue().iterator().next();
                LinkedHashSet<E> bucket = model.get(priority);
                boolean removed = bucket != null && bucket.remove(element);
                if (bucket != null && bucket.isEmpty()) {
                    model.remove(priority);
                }
                size -= removed ? 1 : 0;
                assertThat(queue.remove(element)).isEqualTo(removed && element.equals(head));
            } else if (kind < 8) {
                E expected = size == 0 ? null : model.firstEntry().getValue().iterator().next();
                assertThat(queue.peek()).isEqualTo(expected);
                assertThat(queue.contains(element)).isEqualTo(model.containsKey(priority)
                        && model.get(priority).contains(element));
            } else {
                E expected = null;
                if (size > 0) {
                    LinkedHashSet<E> bucket = model.firstEntry().getValue();
                    expected = bucket.iterator().next();
                    bucket.remove(expected);
                    if (bucket.isEmpty()) {
                        model.pollFirstEntry();
                    }
                    size--;
                }
                assertThat(queue.poll()).isEqualTo(expected);
            }
            assertThat(queue.size()).isEqualTo(size);
            if (op % 10_000 == 0) {
                Set<E> all = new HashSet<>();
                model.values().forEach(all::addAll);
                Set<E> iterated = new HashSet<>();
                for (Iterator<E> it = queue.iterator(); it.hasNext(); ) {
                    assertThat(iterated.add(it.next())).isTrue();
                }
                assertThat(iterated).isEqualTo(all);
            }
        }
    }

    @Test
    void drainsInPriorityOrderAcrossManyDistinctPriorities() {
        BucketedPriorityQueueSet<Element> queue = newQueue();
        Random random = new Random(7);
        List<Element> added = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            Element e = new Element(random.nextLong(), i);
            queue.add(e);
            added.add(e);
        }
        added.sort(Comparator.comparingLong(e -> e.priority));
        List<Element> polled = new ArrayList<>();
        Element e;
        while ((e = queue.poll()) != null) {
            polled.add(e);
        }
        assertThat(polled).isEqualTo(added);
    }
}
