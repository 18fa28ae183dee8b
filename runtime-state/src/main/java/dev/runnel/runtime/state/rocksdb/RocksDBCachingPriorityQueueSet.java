package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.heap.KeyGroupPartitionedPriorityQueue;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.InternalPriorityQueue;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.TreeSet;
import java.util.function.Consumer;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * The elements of one key group of a RocksDB timer queue: an ordered set kept in RocksDB, with the
 * smallest elements cached in memory.
 *
 * <pre>
 *   RocksDB (column family of the queue), key = [key group][element bytes], value = empty
 *   ┌───────────────────────────────────────────────────────────────────────────┐
 *   │ e1 e2 e3 … e128 │ e129 e130 …                                             │
 *   └───────────────────────────────────────────────────────────────────────────┘
 *     ▲ cache: the smallest ≤ capacity elements, as serialized bytes, sorted unsigned
 * </pre>
 *
 * The element serializer is byte-ordered (timers: timestamp first), so RocksDB's key order is the
 * priority order and the cache's smallest entry is the head. Invariant: every element not in the
 * cache is larger than every element in it.
 * <ul>
 *   <li>Every add and remove is written through to RocksDB (without write-ahead log), gathered in a
 *       {@link RocksDBWriteBatcher} shared by all timer queues of the backend; whatever reads
 *       RocksDB flushes it first.
 *   <li>An add that is not smaller than the cache's last element, while the cache is full or not
 *       complete, goes to RocksDB only.
 *   <li>When the cache runs empty while RocksDB holds more, it is refilled with one iterator that seeks
 *       from the last element removed from the cache (a hint), not from the start of the key group,
 *       so it does not walk over the tombstones of already polled elements.
 *   <li>Equal elements serialize equally, so the set deduplicates by bytes. Adds and removes of
 *       elements beyond the cache of an incomplete set do not look them up in RocksDB first (a put
 *       and a delete are idempotent there, and the head cannot change); they only mark the size as
 *       unknown, and {@link #size()} counts it again when asked. So the hot path never reads RocksDB.
 * </ul>
 *
 * <p>Task thread only. Owns no native object between calls (iterators and their options are closed
 * within the call); the database, column family and write batcher belong to the backend.
 *
 * @param <T> the element type
 */
public final class RocksDBCachingPriorityQueueSet<T>
        implements InternalPriorityQueue<T>, HeapPriorityQueueElement, KeyGroupPartitionedPriorityQueue.KeyGroupQueue {

    /** Unsigned lexicographic order: the order RocksDB's default comparator keeps keys in. */
    static final Comparator<byte[]> UNSIGNED_BYTES = Arrays::compareUnsigned;

    private static final byte[] EMPTY_VALUE = new byte[0];

    private final String queueName;
    private final int keyGroup;
    private final byte[] keyGroupPrefix;
    private final RocksDB db;
    private final ColumnFamilyHandle columnFamily;
    private final RocksDBWriteBatcher writes;
    private final TypeSerializer<T> serializer;
    private final DataOutputSerializer out;
    private final DataInputDeserializer in;
    private final int capacity;
    private final TreeSet<byte[]> cache = new TreeSet<>(UNSIGNED_BYTES);

    /** True when RocksDB holds no element that is not also in the cache. */
    private boolean allInCache;
    /** The number of elements, when {@link #sizeKnown}; otherwise stale until {@link #size()} recounts. */
    private int size;
    private boolean sizeKnown = true;
    /** Lower bound for the next refill: an element removed from the cache (so smaller than RocksDB's rest). */
    private byte[] seekHint;
    /** The deserialized head, kept until the head changes. */
    private T peeked;
    private int internalIndex = NOT_CONTAINED;

    /**
     * @param initialSize how many elements of this key group RocksDB holds already (restored)
     * @param writes where adds and removes are written (shared; flushed by every reader of RocksDB)
     * @param out shared serialization buffer (one per queue; task thread only)
     * @param in shared deserialization view
     */
    RocksDBCachingPriorityQueueSet(String queueName, int keyGroup, int capacity, int initialSize,
            RocksDB db, ColumnFamilyHandle columnFamily, RocksDBWriteBatcher writes,
            TypeSerializer<T> serializer, DataOutputSerializer out, DataInputDeserializer in) {
        if (capacity <= 0) {
            throw new IllegalArgumentException(String.format(
                    "the cache of timer queue '%s' needs a positive capacity, was %s", queueName, capacity));
        }
        this.queueName = queueName;
        this.keyGroup = keyGroup;
        this.keyGroupPrefix = RocksDBKeyBuilder.keyGroupPrefix(keyGroup);
        this.capacity = capacity;
        this.size = initialSize;
        this.allInCache = initialSize == 0;
        this.db = db;
        this.columnFamily = columnFamily;
        this.writes = writes;
        this.serializer = serializer;
        this.out = out;
        this.in = in;
    }

    @Override
    public T peek() {
        byte[] head = headBytes();
        if (head == null) {
            return null;
        }
        if (peeked == null) {
            peeked = deserialize(head);
        }
        return peeked;
    }

    @Override
    public T poll() {
        T head = peek();
        if (head == null) {
            return null;
        }
        byte[] bytes = cache.pollFirst();
        if (cache.isEmpty()) {
            seekHint = bytes;
        }
        deleteFromDisk(bytes);
        size--;
        peeked = null;
        return head;
    }

    @Override
    public boolean add(T element) {
        byte[] bytes = serialize(element);
        byte[] head = headBytes();
        boolean inserted;
        if (head == null) {
            // Empty: headBytes() refilled if RocksDB had anything, so the set is empty and complete.
            inserted = cache.add(bytes);
        } else if (UNSIGNED_BYTES.compare(bytes, cache.last()) < 0) {
            // Belongs in the cache; if a larger element must make room, it stays in RocksDB.
            inserted = cache.add(bytes);
            if (inserted && cache.size() > capacity) {
                cache.pollLast();
                allInCache = false;
            }
        } else if (allInCache && cache.size() < capacity) {
            inserted = cache.add(bytes);
        } else if (allInCache) {
            // Full and complete: anything beyond the last is new, the last itself is a duplicate.
            inserted = !Arrays.equals(bytes, cache.last());
            allInCache = !inserted;
        } else {
            // Beyond the cache of an incomplete set: it may be in RocksDB already, which a put does
            // not mind. The head stays, so only the size is in doubt.
            if (!Arrays.equals(bytes, cache.last())) {
                putToDisk(bytes);
                sizeKnown = false;
            }
            return false;
        }
        if (!inserted) {
            return false;
        }
        putToDisk(bytes);
        size++;
        boolean headChanged = head == null || UNSIGNED_BYTES.compare(bytes, head) < 0;
        if (headChanged) {
            peeked = null;
        }
        return headChanged;
    }

    @Override
    public boolean remove(T element) {
        byte[] bytes = serialize(element);
        byte[] head = headBytes();
        if (head == null) {
            return false;
        }
        boolean removed;
        if (cache.remove(bytes)) {
            removed = true;
            if (cache.isEmpty()) {
                seekHint = bytes;
            }
        } else if (!allInCache && UNSIGNED_BYTES.compare(bytes, cache.last()) > 0) {
            // Not cached, but it may exist beyond the cache: deleting an absent key is harmless.
            deleteFromDisk(bytes);
            sizeKnown = false;
            return false;
        } else {
            removed = false;
        }
        if (!removed) {
            return false;
        }
        deleteFromDisk(bytes);
        size--;
        boolean headChanged = Arrays.equals(bytes, head);
        if (headChanged) {
            peeked = null;
        }
        return headChanged;
    }

    @Override
    public boolean isEmpty() {
        return sizeKnown ? size == 0 : headBytes() == null;
    }

    /** Exact; after adds or removes beyond the cache it counts the key group in RocksDB once. */
    @Override
    public int size() {
        if (!sizeKnown) {
            size = countOnDisk();
            sizeKnown = true;
        }
        return size;
    }

    /** Every element of this key group, read from RocksDB (which holds them all) in priority order. */
    @Override
    public Iterator<T> iterator() {
        List<T> elements = new ArrayList<>();
        scan(keyGroupPrefix, Integer.MAX_VALUE, "iterate", key -> elements.add(deserialize(key)));
        return elements.iterator();
    }

    public int getKeyGroup() {
        return keyGroup;
    }

    /** How many elements the cache holds now; for tests. */
    int cachedCount() {
        return cache.size();
    }

    /** Whether the cache holds every element; for tests. */
    boolean isCacheComplete() {
        return allInCache;
    }

    @Override
    public int getInternalIndex() {
        return internalIndex;
    }

    @Override
    public void setInternalIndex(int newIndex) {
        this.internalIndex = newIndex;
    }

    // ------------------------------------------------------------------ internals

    /** The head's bytes, refilling the cache first if it ran empty while RocksDB holds more. */
    private byte[] headBytes() {
        if (cache.isEmpty()) {
            if (allInCache) {
                return null;
            }
            refill();
            if (cache.isEmpty()) {
                return null;
            }
        }
        return cache.first();
    }

    private void refill() {
        byte[] start = seekHint != null ? seekHint : keyGroupPrefix;
        allInCache = scan(start, capacity, "read", cache::add);
        if (allInCache) {
            size = cache.size();
            sizeKnown = true;
        }
    }

    private int countOnDisk() {
        int[] count = {0};
        scan(keyGroupPrefix, Integer.MAX_VALUE, "count", key -> count[0]++);
        return count[0];
    }

    /**
     * Flushes pending writes, then hands {@code visit} the stored bytes of at most {@code limit}
     * elements of this key group, in order, from {@code start} on. Returns whether that reached the
     * end of the key group. The iterator's upper bound stops RocksDB at the end of the key group
     * instead of scanning on over the next group's tombstones.
     */
    private boolean scan(byte[] start, int limit, String action, Consumer<byte[]> visit) {
        String operation = action + " key group " + keyGroup + " of timer queue";
        flushWrites(operation);
        try (ReadOptions options = new ReadOptions();
                Slice upperBound = new Slice(RocksDBKeyBuilder.keyGroupPrefix(keyGroup + 1));
                RocksIterator iterator = db.newIterator(columnFamily, options.setIterateUpperBound(upperBound))) {
            iterator.seek(start);
            for (int visited = 0; visited < limit && iterator.isValid(); visited++) {
                visit.accept(iterator.key());
                iterator.next();
            }
            if (iterator.isValid()) {
                return false;
            }
            iterator.status();
            return true;
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrapUnchecked(operation, queueName, e);
        }
    }

    private void flushWrites(String action) {
        try {
            writes.flush();
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrapUnchecked(action, queueName, e);
        }
    }

    private void putToDisk(byte[] bytes) {
        try {
            writes.put(columnFamily, bytes, EMPTY_VALUE);
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrapUnchecked("add to timer queue", queueName, e);
        }
    }

    private void deleteFromDisk(byte[] bytes) {
        try {
            writes.delete(columnFamily, bytes);
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrapUnchecked("remove from timer queue", queueName, e);
        }
    }

    private byte[] serialize(T element) {
        if (element == null) {
            throw new NullPointerException("timer queue '" + queueName + "' does not accept null elements");
        }
        out.clear();
        RocksDBKeyBuilder.writeKeyGroup(out, keyGroup);
        try {
            serializer.serialize(element, out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot serialize an element of timer queue '" + queueName + "'", e);
        }
        return out.getCopyOfBuffer();
    }

    private T deserialize(byte[] bytes) {
        in.setBuffer(bytes, RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES,
                bytes.length - RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES);
        try {
            return serializer.deserialize(in);
        } catch (IOException e) {
            throw new UncheckedIOException(String.format(
                    "cannot read an element of key group %s of timer queue '%s': the stored bytes are corrupt "
                            + "or the serializer changed", keyGroup, queueName), e);
        }
    }

    @Override
    public int keyGroupId() {
        return keyGroup;
    }
}
