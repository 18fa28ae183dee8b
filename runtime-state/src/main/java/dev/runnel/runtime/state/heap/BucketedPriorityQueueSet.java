package dev.runnel.runtime.state.heap;

import static dev.runnel.runtime.state.queue.HeapPriorityQueueElement.NOT_CONTAINED;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.InternalPriorityQueue;
import dev.runnel.runtime.state.queue.KeyExtractorFunction;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PartedLongPriority;
import dev.runnel.runtime.state.queue.PolledParts;
import java.util.Arrays;
import java.util.HashSet;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

/**
 * The heap store's queue for elements ordered by a long, as timers are by their timestamp: one queue for all
 * key groups of a backend's range, each element tagged with its key group. An element whose priority no other
 * queued element has sits alone in a {@link HeapPriorityQueue}; once a second element of that priority
 * arrives, the two move into a bucket, which takes their place in the heap, and later ones of that priority
 * are appended to it (while priorities are being shared, as a window's timers share its end, a new priority
 * of parted elements starts as a bucket right away):
 *
 * <pre>
 *   heap (by priority):  [ t4 @ 500 ] [ bucket @ 999 ] [ t8 @ 1203 ] [ bucket @ 1999 ]
 *   bucket @ 999:  items     [ -- | t7 | t3 | t9 ]    first = 1, end = 4: t7, then t3, then t9
 *                  hashes    [ -- | h7 | h3 | h9 ]    each item's hash, compared before equals()
 *                  keyGroups [ -- | 17 | 40 | 17 ]    each item's key group
 *   byPriority:    500 -> slot of t4, 999 -> slot of its bucket, ...
 *   keyGroupOfSlot: the key group of a single element, by its heap slot
 * </pre>
 *
 * Why buckets: keyed windows register one timer per key and window, all at the window's end, so a
 * few priorities hold most elements. A bucket deduplicates among its own elements only — a short scan
 * of its hashes, or its own small index once it is larger — and a new element is appended, so
 * registering touches the current window's bucket, which is hot, rather than an index and a heap
 * sized by every pending timer. Polling takes a bucket's items front to back, O(1) and in the order
 * they were added, which is also the order they were allocated in memory; the heap changes only when
 * a bucket is emptied. Elements of equal priority come out first-added, first-out, whatever their key
 * groups. Timers that rarely share a timestamp stay single in the heap and cost what they would in a
 * plain heap: one entry in the heap and one in {@code byPriority}, which also deduplicates them.
 *
 * <p>Why one queue for the range rather than one per key group (as Flink's heap timers and this store's
 * other queues are): a window's timers of a subtask's keys then share one bucket instead of being spread
 * over one bucket per key group (a subtask of max parallelism 128 at parallelism 2 holds 64), which cost an
 * object, three arrays and an index entry per key group and window, all copied by young collections while
 * the window is pending, and a heap of key group queues re-sorted on every poll. Key groups matter only for
 * snapshots and rescaling: {@link #copyElements} sorts the elements by key group when a snapshot is taken,
 * and elements carry their key group, so that two elements count as equal only in one key group.
 *
 * <p>When the priority is a {@link PartedLongPriority} (timers: timestamp, key, namespace), a bucket keeps
 * each element's two parts instead of the element, and {@link #poll}/{@link #peek} hand out an element
 * assembled from them (equal to the one added, not the same object). A pending window timer then costs
 * two references in its bucket rather than an object of its own, which every young collection would copy
 * until the window fires; the assembled one dies young.
 *
 * <p>{@code byPriority} is a small open-addressing table from a priority to the heap slot of its
 * element or bucket. Emptied buckets are kept for reuse, a few at a time.
 *
 * <p>Set semantics of {@link InternalPriorityQueue}: adding an element equal to a queued one of its key group
 * changes nothing; removing by an equal element finds the queued instance. {@link #add} and {@link #remove}
 * return whether the head changed. An element's key group is the one the caller names ({@link #add(Object,
 * int)}, as the timer service does for the current key) or else its key's; it must be in the range.
 *
 * <p>Task thread only; no locks. Elements must not be null, must not change their priority,
 * {@code equals} or {@code hashCode} while queued, and may be in one queue at a time (an element's
 * internal index is its heap slot or, kept whole, its position in its bucket).
 *
 * @param <T> the element type
 */
public final class BucketedPriorityQueueSet<T extends HeapPriorityQueueElement>
        implements KeyGroupSnapshotQueue<T> {

    /**
     * Spare buckets kept for reuse. A watermark often fires many windows at once (all that ended since the last
     * one, each a bucket), and as many new ones fill up before the next: buckets are kept up to this many, so
     * that most new windows take a used bucket instead of four new arrays grown step by step.
     */
    private static final int MAX_SPARE_BUCKETS = 64;
    /**
     * At most this many places in all spare buckets together (some 4 MB with their indexes): enough for a window's
     * timers of many thousand keys to reuse their bucket, while one burst of timers does not stay in the heap.
     */
    private static final int MAX_SPARE_PLACES = 1 << 17;

    private final LongPriorityComparator<T> priority;
    /** When the elements are their priority and two parts (timers): buckets keep the parts, not the elements. */
    private final PartedLongPriority<T> parts;
    private final KeyExtractorFunction<T> keyExtractor;
    private final KeyGroupRange keyGroupRange;
    private final int numberOfKeyGroups;
    /** The head of {@link #headCopyBucket} as last assembled, while it sits at {@link #headCopyPosition}. */
    private T headCopy;
    private Bucket headCopyBucket;
    private int headCopyPosition;
    /** Single elements and buckets, by priority. */
    private final HeapPriorityQueue<HeapPriorityQueueElement> heap;
    private final PriorityIndex byPriority = new PriorityIndex();
    /** The key group of the single element in each heap slot (a bucket's slot holds nothing meaningful). */
    private int[] keyGroupOfSlot = new int[16];
    /**
     * Whether the last priority that came and went was shared by several elements. While it is, the first
     * element of a new priority (parts kept) starts a bucket rather than sitting alone: the timers of keyed
     * windows share each window's end, and starting alone cost an element assembled and replaced by a
     * bucket at once. Timers of their own timestamps turn it off and stay single.
     */
    private boolean prioritiesShared;
    /** The bucket that took the last new element: timers of one window arrive in a row. */
    private Bucket lastAdded;
    /** Grown on demand up to {@link #MAX_SPARE_BUCKETS}. */
    private Bucket[] spare = new Bucket[4];
    private int spareCount;
    private int sparePlaces;
    private int size;

    /**
     * @param priority the long that orders the elements; smaller comes first
     * @param keyExtractor the key of an element, whose key group is the element's unless the caller names one
     * @param keyGroupRange the key groups whose elements this queue holds
     * @param numberOfKeyGroups the max parallelism
     */
    @SuppressWarnings("unchecked")
    public BucketedPriorityQueueSet(LongPriorityComparator<T> priority, KeyExtractorFunction<T> keyExtractor,
            KeyGroupRange keyGroupRange, int numberOfKeyGroups) {
        this.priority = Objects.requireNonNull(priority, "priority");
        this.parts = priority instanceof PartedLongPriority<T> parted ? parted : null;
        this.keyExtractor = Objects.requireNonNull(keyExtractor, "keyExtractor");
        this.keyGroupRange = Objects.requireNonNull(keyGroupRange, "keyGroupRange");
        KeyGroupRangeAssignment.checkMaxParallelism(numberOfKeyGroups);
        this.numberOfKeyGroups = numberOfKeyGroups;
        LongPriorityComparator<HeapPriorityQueueElement> entryPriority =
                entry -> entry instanceof Bucket bucket ? bucket.priority : priority.priorityOf((T) entry);
        this.heap = new HeapPriorityQueue<>(entryPriority, 0);
    }

    @Override
    @SuppressWarnings("unchecked")
    public T poll() {
        HeapPriorityQueueElement head = heap.peek();
        if (head instanceof Bucket bucket) {
            T first = headOf(bucket);
            removeFrom(bucket, bucket.first);
            return first;
        }
        if (head != null) {
            removeSingle((T) head);
        }
        return (T) head;
    }

    @Override
    @SuppressWarnings("unchecked")
    public T peek() {
        HeapPriorityQueueElement head = heap.peek();
        return head instanceof Bucket bucket ? headOf(bucket) : (T) head;
    }

    @Override
    public int peekKeyGroup() {
        HeapPriorityQueueElement head = heap.peek();
        if (head instanceof Bucket bucket) {
            return bucket.keyGroups[bucket.first];
        }
        return head == null ? -1 : keyGroupOfSlot[head.getInternalIndex()];
    }

    /** Polls by parts where this queue keeps parts (timers): no element made. */
    @Override
    public boolean pollUpTo(long maxPriority, PartedLongPriority<T> parted, PolledParts into) {
        if (parts == null) {
            return KeyGroupSnapshotQueue.super.pollUpTo(maxPriority, parted, into);
        }
        return headPriority() <= maxPriority && pollParts(into);
    }

    /**
     * Takes the head out and puts its priority, parts and key group into {@code into}, assembling no
     * element; false when empty. Only when {@link #keepsParts()}.
     */
    @SuppressWarnings("unchecked")
    boolean pollParts(PolledParts into) {
        HeapPriorityQueueElement head = heap.peek();
        if (head instanceof Bucket bucket) {
            int position = bucket.first;
            into.set(bucket.priority, bucket.firsts[position], bucket.seconds[position], bucket.keyGroups[position]);
            removeFrom(bucket, position);
            return true;
        }
        if (head == null) {
            return false;
        }
        T single = (T) head;
        into.set(parts.priorityOf(single), parts.firstPart(single), parts.secondPart(single),
                keyGroupOfSlot[single.getInternalIndex()]);
        removeSingle(single);
        return true;
    }

    /** The head's priority, read without touching the head; Long.MAX_VALUE when empty. */
    public long headPriority() {
        return heap.headPriority();
    }

    /** Adds {@code element} unless an equal one of its key group is queued; true if it became the head. */
    @Override
    public boolean add(T element) {
        return add(element, -1);
    }

    @Override
    public boolean add(T element, int keyGroup) {
        int group = checkedKeyGroup(element, keyGroup);
        return add(priority.priorityOf(element), element, firstOf(element), secondOf(element),
                SlotIndex.hashOf(element), group);
    }

    /** Whether elements are kept as their parts in buckets, so that {@link #addParts} makes no element there. */
    boolean keepsParts() {
        return parts != null;
    }

    /**
     * Adds by parts: where this queue keeps parts, the element is made only if it is kept whole (the only one
     * of its priority); else as the assembled element.
     */
    @Override
    public boolean addParts(PartedLongPriority<T> parted, long p, Object firstPart, Object secondPart, int keyGroup) {
        if (parts == null || keyGroup < 0) {
            return add(parted.assemble(p, firstPart, secondPart), keyGroup);
        }
        return add(p, null, firstPart, secondPart, SlotIndex.spread(parts.hashOf(p, firstPart, secondPart)),
                inRange(keyGroup, "the element of key ", firstPart));
    }

    /**
     * Adds the element of priority {@code p} whose bucket parts are {@code firstPart} and {@code secondPart},
     * whose hash is {@code hash} and whose key group is {@code keyGroup}: {@code element}, or when that is null
     * one assembled from the parts, made only if it is to be kept whole.
     */
    @SuppressWarnings("unchecked")
    private boolean add(long p, T element, Object firstPart, Object secondPart, int hash, int keyGroup) {
        Bucket bucket = lastAdded;
        if (bucket == null || bucket.priority != p) {
            int slot = byPriority.get(p);
            if (slot < 0 && parts != null && prioritiesShared) {
                // Priorities have been shared lately (a window's timers): a bucket at once, no element made.
                bucket = newBucket(p);
                boolean headChanged = heap.add(bucket);
                byPriority.put(p, bucket.getInternalIndex());
                appendNew(bucket, firstPart, secondPart, hash, keyGroup);
                return headChanged;
            }
            if (slot < 0) {
                T whole = element != null ? element : parts.assemble(p, firstPart, secondPart);
                boolean headChanged = heap.add(whole);
                int wholeSlot = whole.getInternalIndex();
                byPriority.put(p, wholeSlot);
                setKeyGroupOfSlot(wholeSlot, keyGroup);
                size++;
                return headChanged;
            }
            HeapPriorityQueueElement queued = heap.elementInSlot(slot);
            if (queued instanceof Bucket existing) {
                bucket = existing;
            } else if (SlotIndex.hashOf(queued) == hash && keyGroupOfSlot[slot] == keyGroup
                    && firstOf((T) queued).equals(firstPart) && Objects.equals(secondOf((T) queued), secondPart)) {
                return false;
            } else {
                // A second element of this priority: both go into a bucket, which takes the first one's place.
                prioritiesShared = true;
                bucket = newBucket(p);
                heap.replace(queued, bucket);
                T single = (T) queued;
                if (parts != null) {
                    single.setInternalIndex(NOT_CONTAINED); // its parts go into the bucket, the object is done
                }
                bucket.append(firstOf(single), secondOf(single), SlotIndex.hashOf(single), keyGroupOfSlot[slot]);
            }
        }
        if (bucket.find(firstPart, secondPart, hash, keyGroup) >= 0) {
            return false;
        }
        appendNew(bucket, firstPart, secondPart, hash, keyGroup);
        return false; // an element of equal priority was queued already, and it stays ahead
    }

    /** Appends a new element's parts to {@code bucket}, which then takes the next ones of its priority first. */
    private void appendNew(Bucket bucket, Object firstPart, Object secondPart, int hash, int keyGroup) {
        bucket.append(firstPart, secondPart, hash, keyGroup);
        size++;
        lastAdded = bucket;
    }

    /** Removes the queued element equal to {@code element} in its key group, if any; true if it was the head. */
    @Override
    public boolean remove(T element) {
        return remove(element, -1);
    }

    @Override
    @SuppressWarnings("unchecked")
    public boolean remove(T element, int keyGroup) {
        int group = checkedKeyGroup(element, keyGroup);
        int slot = byPriority.get(priority.priorityOf(element));
        if (slot < 0) {
            return false;
        }
        HeapPriorityQueueElement queued = heap.elementInSlot(slot);
        if (queued instanceof Bucket bucket) {
            int position = bucket.find(firstOf(element), secondOf(element), SlotIndex.hashOf(element), group);
            if (position < 0) {
                return false;
            }
            boolean wasHead = position == bucket.first && heap.isHead(bucket);
            removeFrom(bucket, position);
            return wasHead;
        }
        if (keyGroupOfSlot[slot] != group || !queued.equals(element)) {
            return false;
        }
        boolean wasHead = heap.isHead(queued);
        removeSingle((T) queued);
        return wasHead;
    }

    /** True if an element equal to {@code element} is queued in its key group. */
    public boolean contains(T element) {
        int group = checkedKeyGroup(element, -1);
        int slot = byPriority.get(priority.priorityOf(element));
        if (slot < 0) {
            return false;
        }
        HeapPriorityQueueElement queued = heap.elementInSlot(slot);
        return queued instanceof Bucket bucket
                ? bucket.find(firstOf(element), secondOf(element), SlotIndex.hashOf(element), group) >= 0
                : keyGroupOfSlot[slot] == group && queued.equals(element);
    }

    @Override
    public boolean isEmpty() {
        return size == 0;
    }

    @Override
    public int size() {
        return size;
    }

    /** The queued elements in no particular order; the queue must not change meanwhile. */
    @Override
    public Iterator<T> iterator() {
        return new Iterator<>() {
            private final ElementCursor cursor = new ElementCursor();
            private boolean ready;

            @Override
            public boolean hasNext() {
                if (!ready) {
                    ready = cursor.next();
                }
                return ready;
            }

            @Override
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                ready = false;
                return cursor.element();
            }
        };
    }

    @Override
    public Set<T> getSubsetForKeyGroup(int keyGroupId) {
        checkInRange(keyGroupId, "key group " + keyGroupId);
        Set<T> subset = new HashSet<>();
        ElementCursor cursor = new ElementCursor();
        while (cursor.next()) {
            if (cursor.keyGroup() == keyGroupId) {
                subset.add(cursor.element());
            }
        }
        return subset;
    }

    /** The elements of each key group of {@code range} (within this queue's), in two passes over all elements. */
    @Override
    public Object[][] copyElements(KeyGroupRange range) {
        int from = range.getStartKeyGroup();
        int count = range.getNumberOfKeyGroups();
        int[] counts = new int[count];
        ElementCursor cursor = new ElementCursor();
        while (cursor.next()) {
            int index = cursor.keyGroup() - from;
            if (index >= 0 && index < count) {
                counts[index]++;
            }
        }
        Object[][] elements = new Object[count][];
        for (int i = 0; i < count; i++) {
            elements[i] = new Object[counts[i]];
        }
        Arrays.fill(counts, 0);
        cursor = new ElementCursor();
        while (cursor.next()) {
            int index = cursor.keyGroup() - from;
            if (index >= 0 && index < count) {
                elements[index][counts[index]++] = cursor.element();
            }
        }
        return elements;
    }

    @Override
    public int keyGroupOf(T element) {
        return KeyGroupRangeAssignment.assignToKeyGroup(keyExtractor.extractKeyFromElement(element), numberOfKeyGroups);
    }

    @Override
    public KeyGroupRange getKeyGroupRange() {
        return keyGroupRange;
    }

    @Override
    public String toString() {
        return "BucketedPriorityQueueSet{" + keyGroupRange + ", size=" + size + ", head=" + peek() + '}';
    }

    /**
     * Walks every queued element with its key group: singles in heap order, each bucket's live places front to
     * back. Elements kept as parts are assembled only when asked for.
     */
    private final class ElementCursor {
        private int entry;
        private Bucket bucket;
        private int position;
        private T single;

        /** Moves to the next element; false when there is none. */
        boolean next() {
            single = null;
            if (bucket != null) {
                while (++position < bucket.end) {
                    if (bucket.firsts[position] != null) {
                        return true;
                    }
                }
                bucket = null;
            }
            while (entry < heap.size()) {
                HeapPriorityQueueElement e = heap.elementAt(entry++);
                if (e instanceof Bucket b) {
                    for (int at = b.first; at < b.end; at++) {
                        if (b.firsts[at] != null) {
                            bucket = b;
                            position = at;
                            return true;
                        }
                    }
                } else {
                    @SuppressWarnings("unchecked")
                    T element = (T) e;
                    single = element;
                    return true;
                }
            }
            return false;
        }

        T element() {
            return single != null ? single : elementAt(bucket, position);
        }

        int keyGroup() {
            return single != null ? keyGroupOfSlot[single.getInternalIndex()] : bucket.keyGroups[position];
        }
    }

    // ------------------------------------------------------------------ key groups

    /** The key group of {@code element}: {@code keyGroup} if not negative, else its key's; in the range. */
    private int checkedKeyGroup(T element, int keyGroup) {
        return inRange(keyGroup >= 0 ? keyGroup : keyGroupOf(element), "element ", element);
    }

    /** {@code keyGroup} if the range holds it; else fails naming what belongs to it ({@code what} {@code subject}). */
    private int inRange(int keyGroup, String what, Object subject) {
        if (!keyGroupRange.contains(keyGroup)) {
            throw new IllegalArgumentException(what + subject + " belongs to key group " + keyGroup + ", which is"
                    + " not in this queue's " + keyGroupRange + ": queue elements only for keys this subtask owns"
                    + " (the current key of the operator)");
        }
        return keyGroup;
    }

    private void checkInRange(int keyGroup, String what) {
        if (!keyGroupRange.contains(keyGroup)) {
            throw new IllegalArgumentException(what + " is not in this queue's " + keyGroupRange);
        }
    }

    private void setKeyGroupOfSlot(int slot, int keyGroup) {
        if (slot >= keyGroupOfSlot.length) {
            keyGroupOfSlot = Arrays.copyOf(keyGroupOfSlot, Math.max(slot + 1, 2 * keyGroupOfSlot.length));
        }
        keyGroupOfSlot[slot] = keyGroup;
    }

    // ------------------------------------------------------------------ entries

    private void removeSingle(T element) {
        prioritiesShared = false;
        byPriority.remove(priority.priorityOf(element), element.getInternalIndex());
        heap.remove(element);
        size--;
    }

    private void removeFrom(Bucket bucket, int position) {
        if (parts == null) {
            ((HeapPriorityQueueElement) bucket.firsts[position]).setInternalIndex(NOT_CONTAINED);
        }
        bucket.removeAt(position);
        headCopy = null;
        headCopyBucket = null;
        size--;
        if (bucket.live == 0) {
            if (bucket.appended == 1) {
                prioritiesShared = false; // it was made for one element that stayed alone
            }
            byPriority.remove(bucket.priority, bucket.getInternalIndex());
            heap.remove(bucket);
            if (lastAdded == bucket) {
                lastAdded = null;
            }
            keepAsSpare(bucket);
        }
    }

    /** Keeps an emptied bucket for the next new priority, unless enough are kept already or it is too large. */
    private void keepAsSpare(Bucket bucket) {
        int places = bucket.firsts.length;
        if (spareCount >= MAX_SPARE_BUCKETS || sparePlaces + places > MAX_SPARE_PLACES) {
            return;
        }
        sparePlaces += places;
        if (spareCount == spare.length) {
            spare = Arrays.copyOf(spare, Math.min(2 * spare.length, MAX_SPARE_BUCKETS));
        }
        spare[spareCount++] = bucket;
    }

    private Bucket newBucket(long p) {
        Bucket bucket;
        if (spareCount > 0) {
            bucket = spare[--spareCount];
            spare[spareCount] = null;
            sparePlaces -= bucket.firsts.length;
        } else {
            bucket = new Bucket(parts == null);
        }
        bucket.reset(p);
        return bucket;
    }

    /** What a bucket keeps of an element: the element itself, or its first part. */
    private Object firstOf(T element) {
        return parts == null ? element : parts.firstPart(element);
    }

    /** What a bucket keeps besides: nothing, or the element's second part. */
    private Object secondOf(T element) {
        return parts == null ? null : parts.secondPart(element);
    }

    /** The element at {@code position} of {@code bucket}: the one kept, or one assembled from its parts. */
    @SuppressWarnings("unchecked")
    private T elementAt(Bucket bucket, int position) {
        return parts == null ? (T) bucket.firsts[position]
                : parts.assemble(bucket.priority, bucket.firsts[position], bucket.seconds[position]);
    }

    /** The bucket's first element, assembled once however often it is peeked before it is polled. */
    private T headOf(Bucket bucket) {
        if (headCopy == null || headCopyBucket != bucket || headCopyPosition != bucket.first) {
            headCopy = elementAt(bucket, bucket.first);
            headCopyBucket = bucket;
            headCopyPosition = bucket.first;
        }
        return headCopy;
    }

    /**
     * The elements of one priority, in the order they were added: positions {@code [first, end)} of
     * {@link #firsts} hold them (or, for parted elements, their first parts, with the second parts in
     * {@link #seconds}), or null where one was removed; {@link #keyGroups} holds each one's key group. Up to
     * {@link #LINEAR_LIMIT} elements an equal one is found by scanning the hashes; beyond that through
     * {@link #index}, which maps a hash to position + 1 (0 marks an empty place) and is kept at most half full.
     */
    static final class Bucket implements HeapPriorityQueueElement {

        static final int LINEAR_LIMIT = 16;
        private static final int INITIAL_CAPACITY = 8;

        /** Whether {@link #firsts} holds the elements themselves (which then carry their positions). */
        private final boolean whole;
        long priority;
        Object[] firsts = new Object[INITIAL_CAPACITY];
        /** Null for whole elements. */
        Object[] seconds;
        int[] hashes = new int[INITIAL_CAPACITY];
        int[] keyGroups = new int[INITIAL_CAPACITY];
        int first;
        int end;
        int live;
        /** Elements appended since the last {@link #reset}. */
        int appended;
        /** Null while the bucket is scanned; kept (cleared) through {@link #reset} for the bucket's next use. */
        private int[] index;
        private boolean indexed;
        private int indexMask;
        private int heapIndex = NOT_CONTAINED;

        Bucket(boolean whole) {
            this.whole = whole;
            this.seconds = whole ? null : new Object[INITIAL_CAPACITY];
        }

        void reset(long newPriority) {
            priority = newPriority;
            first = 0;
            end = 0;
            live = 0;
            appended = 0;
            dropIndex();
        }

        /** Stops using the index; its array stays for reuse, cleared. */
        private void dropIndex() {
            if (indexed) {
                Arrays.fill(index, 0);
                indexed = false;
            }
        }

        /**
         * The position of the element of these parts (whole: {@code firstPart} is the element) in
         * {@code keyGroup}, or -1.
         */
        int find(Object firstPart, Object secondPart, int hash, int keyGroup) {
            if (!indexed) {
                int[] h = hashes;
                int[] g = keyGroups;
                Object[] f = firsts;
                for (int i = first; i < end; i++) {
                    if (h[i] == hash && g[i] == keyGroup && f[i] != null && f[i].equals(firstPart)
                            && sameSecond(i, secondPart)) {
                        return i;
                    }
                }
                return -1;
            }
            int[] ix = index;
            int m = indexMask;
            int at;
            for (int i = hash & m; (at = ix[i]) != 0; i = (i + 1) & m) {
                int position = at - 1;
                if (hashes[position] == hash && keyGroups[position] == keyGroup && firsts[position].equals(firstPart)
                        && sameSecond(position, secondPart)) {
                    return position;
                }
            }
            return -1;
        }

        private boolean sameSecond(int position, Object secondPart) {
            return whole || seconds[position] == secondPart || seconds[position].equals(secondPart);
        }

        void append(Object firstPart, Object secondPart, int hash, int keyGroup) {
            if (end == firsts.length) {
                makeRoom();
            }
            int position = end++;
            firsts[position] = firstPart;
            if (whole) {
                ((HeapPriorityQueueElement) firstPart).setInternalIndex(position);
            } else {
                seconds[position] = secondPart;
            }
            hashes[position] = hash;
            keyGroups[position] = keyGroup;
            live++;
            appended++;
            if (indexed) {
                if (2 * live > index.length) {
                    buildIndex();
                } else {
                    indexInsert(position);
                }
            } else if (live > LINEAR_LIMIT) {
                buildIndex();
            }
        }

        void removeAt(int position) {
            if (indexed) {
                indexDelete(position);
            }
            firsts[position] = null;
            if (!whole) {
                seconds[position] = null;
            }
            live--;
            if (live == 0) {
                first = 0;
                end = 0;
                dropIndex();
            } else if (position == first) {
                while (firsts[first] == null) {
                    first++;
                }
            }
        }

        /** Compacts the live elements to the front, growing the arrays if they are more than half full. */
        private void makeRoom() {
            Object[] oldFirsts = firsts;
            Object[] oldSeconds = seconds;
            int[] oldHashes = hashes;
            int[] oldKeyGroups = keyGroups;
            if (2 * live > oldFirsts.length) {
                firsts = new Object[oldFirsts.length * 2];
                seconds = whole ? null : new Object[oldFirsts.length * 2];
                hashes = new int[oldFirsts.length * 2];
                keyGroups = new int[oldFirsts.length * 2];
            }
            int to = 0;
            for (int from = first; from < end; from++) {
                Object firstPart = oldFirsts[from];
                if (firstPart != null) {
                    oldFirsts[from] = null;
                    firsts[to] = firstPart;
                    hashes[to] = oldHashes[from];
                    keyGroups[to] = oldKeyGroups[from];
                    if (whole) {
                        ((HeapPriorityQueueElement) firstPart).setInternalIndex(to);
                    } else {
                        Object secondPart = oldSeconds[from];
                        oldSeconds[from] = null;
                        seconds[to] = secondPart;
                    }
                    to++;
                }
            }
            first = 0;
            end = to;
            if (indexed) {
                buildIndex();
            }
        }

        /** Indexes the live places, in the kept array if it is large enough (and clear), else in a new one. */
        private void buildIndex() {
            int capacity = Integer.highestOneBit(Math.max(LINEAR_LIMIT, live) * 4 - 1);
            if (index != null && index.length >= capacity && !indexed) {
                capacity = index.length;
            } else {
                index = new int[capacity];
            }
            indexed = true;
            indexMask = capacity - 1;
            for (int position = first; position < end; position++) {
                if (firsts[position] != null) {
                    indexInsert(position);
                }
            }
        }

        private void indexInsert(int position) {
            int i = hashes[position] & indexMask;
            while (index[i] != 0) {
                i = (i + 1) & indexMask;
            }
            index[i] = position + 1;
        }

        /** Removes {@code position} from the index, moving back later places of its run whose home allows it. */
        private void indexDelete(int position) {
            int[] ix = index;
            int m = indexMask;
            int hole = hashes[position] & m;
            while (ix[hole] != position + 1) {
                hole = (hole + 1) & m;
            }
            int i = hole;
            while (true) {
                i = (i + 1) & m;
                int at = ix[i];
                if (at == 0) {
                    break;
                }
                int home = hashes[at - 1] & m;
                if (LinearProbing.canMoveBack(home, hole, i)) {
                    ix[hole] = at;
                    hole = i;
                }
            }
            ix[hole] = 0;
        }

        @Override
        public int getInternalIndex() {
            return heapIndex;
        }

        @Override
        public void setInternalIndex(int newIndex) {
            heapIndex = newIndex;
        }
    }

    /**
     * Open-addressing table from a priority to the slot of its bucket in the heap of buckets (slot + 1
     * stored; 0 marks an empty place), at most half full. Ints rather than bucket references, so that
     * the long-lived table never gets a reference to a young bucket stored into it.
     */
    private static final class PriorityIndex {
        private long[] keys = new long[16];
        private int[] slots = new int[16];
        private int mask = 15;
        private int count;

        private static int home(long p, int mask) {
            long h = p * 0x9E3779B97F4A7C15L;
            return (int) (h ^ (h >>> 32)) & mask;
        }

        int get(long p) {
            long[] k = keys;
            int[] s = slots;
            int m = mask;
            for (int i = home(p, m); s[i] != 0; i = (i + 1) & m) {
                if (k[i] == p) {
                    return s[i] - 1;
                }
            }
            return -1;
        }

        void put(long p, int slot) {
            if (2 * (count + 1) > slots.length) {
                grow();
            }
            int i = home(p, mask);
            while (slots[i] != 0) {
                i = (i + 1) & mask;
            }
            keys[i] = p;
            slots[i] = slot + 1;
            count++;
        }

        void remove(long p, int slot) {
            int m = mask;
            int hole = home(p, m);
            while (slots[hole] != slot + 1) {
                hole = (hole + 1) & m;
            }
            int i = hole;
            while (true) {
                i = (i + 1) & m;
                if (slots[i] == 0) {
                    break;
                }
                int home = home(keys[i], m);
                if (LinearProbing.canMoveBack(home, hole, i)) {
                    keys[hole] = keys[i];
                    slots[hole] = slots[i];
                    hole = i;
                }
            }
            slots[hole] = 0;
            count--;
        }

        private void grow() {
            long[] oldKeys = keys;
            int[] oldSlots = slots;
            int capacity = oldSlots.length * 2;
            keys = new long[capacity];
            slots = new int[capacity];
            mask = capacity - 1;
            for (int j = 0; j < oldSlots.length; j++) {
                if (oldSlots[j] != 0) {
                    int i = home(oldKeys[j], mask);
                    while (slots[i] != 0) {
                        i = (i + 1) & mask;
                    }
                    keys[i] = oldKeys[j];
                    slots[i] = oldSlots[j];
                }
            }
        }
    }
}
