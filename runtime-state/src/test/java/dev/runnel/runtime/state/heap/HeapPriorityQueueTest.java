package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** The array heap and the per-key-group set on top of it. */
class HeapPriorityQueueTest {

    /** An element with a priority; equal when id and priority are. */
    static final class Element implements HeapPriorityQueueElement {
        final long priority;
        final int id;
        int index = NOT_CONTAINED;

        Element(long priority, int id) {
            this.priority = priority;
            this.id = id;
        }

        @Override
        public int getInternalIndex() {
            return index;
        }

        @Override
        public void setInternalIndex(int newIndex) {
            index = newIndex;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Element e && e.priority == priority && e.id == id;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(priority) * 31 + id;
        }

        @Override
        public String toString() {
            return priority + "/" + id;
        }
    }

    static int byPriority(Element a, Element b) {
        return Long.compare(a.priority, b.priority);
    }

    private static final Comparator<Element> TOTAL =
            Comparator.<Element>comparingLong(e -> e.priority).thenComparingInt(e -> e.id);

    @Test
    void pollsInPriorityOrderAndReportsHeadChanges() {
        HeapPriorityQueue<Element> heap = new HeapPriorityQueue<>(HeapPriorityQueueTest::byPriority, 0);
        assertThat(heap.peek()).isNull();
        assertThat(heap.poll()).isNull();
        Element five = new Element(5, 0);
        Element three = new Element(3, 0);
        Element seven = new Element(7, 0);
        assertThat(heap.add(five)).isTrue();
        assertThat(heap.add(seven)).isFalse();
        assertThat(heap.add(three)).isTrue();
        assertThat(heap.size()).isEqualTo(3);
        assertThat(heap.remove(seven)).isFalse();
        assertThat(seven.getInternalIndex()).isEqualTo(HeapPriorityQueueElement.NOT_CONTAINED);
        assertThat(heap.remove(seven)).as("no longer contained").isFalse();
        assertThat(heap.remove(three)).isTrue();
        assertThat(heap.poll()).isSameAs(five);
        assertThat(heap.isEmpty()).isTrue();
    }

    @Test
    void anElementCanBeInOneHeapOnly() {
        HeapPriorityQueue<Element> a = new HeapPriorityQueue<>(HeapPriorityQueueTest::byPriority, 4);
        HeapPriorityQueue<Element> b = new HeapPriorityQueue<>(HeapPriorityQueueTest::byPriority, 4);
        Element e = new Element(1, 1);
        a.add(e);
        assertThatThrownBy(() -> b.add(e)).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already in a heap");
        assertThat(b.remove(e)).as("removal from a heap that does not hold it").isFalse();
        assertThat(a.size()).isEqualTo(1);
    }

    @Test
    void randomAddsAndRemovalsKeepTheHeapOrderAndIndices() {
        randomAddsAndRemovals(new HeapPriorityQueue<>(HeapPriorityQueueTest::byPriority, 0));
    }

    @Test
    void randomAddsAndRemovalsWithLongPriorities() {
        LongPriorityComparator<Element> byLong = e -> e.priority;
        randomAddsAndRemovals(new HeapPriorityQueue<>(byLong, 0));
    }

    private static void randomAddsAndRemovals(HeapPriorityQueue<Element> heap) {
        Random random = new Random(42);
        TreeSet<Element> model = new TreeSet<>(TOTAL);
        List<Element> live = new ArrayList<>();
        for (int op = 0; op < 200_000; op++) {
            int choice = random.nextInt(10);
            if (choice < 5 || live.isEmpty()) {
                Element e = new Element(random.nextInt(1000), op);
                long before = heap.isEmpty() ? Long.MAX_VALUE : heap.peek().priority;
                boolean headChanged = heap.add(e);
                assertThat(headChanged).isEqualTo(heap.peek() == e);
                assertThat(headChanged).isEqualTo(e.priority < before);
                model.add(e);
                live.add(e);
            } else if (choice < 8) {
                Element e = live.remove(random.nextInt(live.size()));
                Element head = heap.peek();
                assertThat(heap.remove(e)).isEqualTo(head == e);
                model.remove(e);
            } else {
                Element polled = heap.poll();
                assertThat(polled.priority).isEqualTo(model.first().priority);
                assertThat(model.remove(polled)).isTrue();
                live.remove(polled);
            }
            assertThat(heap.size()).isEqualTo(model.size());
            if (!model.isEmpty()) {
                assertThat(heap.peek().priority).isEqualTo(model.first().priority);
            }
        }
        for (int i = 0; i < heap.size(); i++) {
            // each element knows its stable slot, and the heap knows where that slot is
            assertThat(heap.positionOf(heap.elementAt(i))).isEqualTo(i);
            assertThat(heap.elementAt(i).getInternalIndex()).isNotEqualTo(HeapPriorityQueueElement.NOT_CONTAINED);
        }
        long last = Long.MIN_VALUE;
        while (!heap.isEmpty()) {
            Element e = heap.poll();
            assertThat(e.priority).isGreaterThanOrEqualTo(last);
            last = e.priority;
        }
    }

    @Test
    void adjustingAModifiedElementRestoresOrder() {
        HeapPriorityQueue<MutableElement> heap = new HeapPriorityQueue<>((a, b) -> Long.compare(a.priority, b.priority), 0);
        List<MutableElement> elements = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            MutableElement e = new MutableElement(i);
            elements.add(e);
            heap.add(e);
        }
        MutableElement e = elements.get(50);
        e.priority = -1;
        assertThat(heap.adjustModifiedElement(e)).isZero();
        assertThat(heap.peek()).isSameAs(e);
        e.priority = 1000;
        assertThat(heap.adjustModifiedElement(e)).isNotZero();
        assertThat(heap.peek().priority).isZero();
        long last = Long.MIN_VALUE;
        while (!heap.isEmpty()) {
            long p = heap.poll().priority;
            assertThat(p).isGreaterThanOrEqualTo(last);
            last = p;
        }
        assertThat(last).isEqualTo(1000);
    }

    static final class MutableElement implements HeapPriorityQueueElement {
        long priority;
        int index = NOT_CONTAINED;

        MutableElement(long priority) {
            this.priority = priority;
        }

        @Override
        public int getInternalIndex() {
            return index;
        }

        @Override
        public void setInternalIndex(int newIndex) {
            index = newIndex;
        }
    }

    @Test
    void theSetDeduplicatesAndRemovesByEquality() {
        HeapPriorityQueueSet<Element> set = new HeapPriorityQueueSet<>(HeapPriorityQueueTest::byPriority, 0);
        assertThat(set.add(new Element(4, 1))).isTrue();
        assertThat(set.add(new Element(4, 1))).as("equal element").isFalse();
        assertThat(set.size()).isEqualTo(1);
        assertThat(set.add(new Element(9, 1))).isFalse();
        assertThat(set.add(new Element(2, 1))).isTrue();
        assertThat(set.contains(new Element(9, 1))).isTrue();
        // removal by an equal, different instance
        assertThat(set.remove(new Element(9, 1))).isFalse();
        assertThat(set.contains(new Element(9, 1))).isFalse();
        assertThat(set.remove(new Element(9, 1))).isFalse();
        assertThat(set.remove(new Element(2, 1))).isTrue();
        assertThat(set.poll()).isEqualTo(new Element(4, 1));
        assertThat(set.add(new Element(4, 1))).as("re-adding after poll").isTrue();
        Set<Element> all = new HashSet<>();
        set.iterator().forEachRemaining(all::add);
        assertThat(all).containsExactly(new Element(4, 1));
        set.clear();
        assertThat(set.isEmpty()).isTrue();
        assertThat(set.contains(new Element(4, 1))).isFalse();
    }
}
