package dev.runnel.runtime.io;

/**
 * What a channel carries: either a batch of records in flight between two subtasks (values and their
 * timestamps in parallel arrays) or exactly one {@link ChannelEvent} ({@link #isEvent()}), as Flink's
 * buffers are data or event. One element type keeps the channel typed, so a consumer dispatches with one
 * boolean per batch instead of type tests. Moving records a batch at a time keeps the cost of handing data
 * between threads (one queue operation, one possible wake-up) off the per-record path.
 *
 * <p>A batch of a keyBy edge in memory also carries each record's key hash code and key group as the producer's
 * partitioner computed them ({@link #addKeyed}), so that the keyed consumer hashes no key again
 * ({@link #keyGroupsOf()}). Records that cross the network arrive without them.
 *
 * <p>Ownership moves with the batch: the writer fills it, hands it to a channel and does not touch
 * it again; the reader consumes it and gives it back through {@link InputGate#recycle(RecordBatch)}.
 * Never shared by two threads at once. {@link #NO_TIMESTAMP} marks a record without a timestamp.
 *
 * <p>The timestamp column is written only once a batch holds a record that has a timestamp: a stream
 * without event time (most sources without a watermark strategy) hands 8 bytes less per record between
 * the two threads' caches, on both the writing and the reading side.
 */
public final class RecordBatch {

    /** The timestamp of a record that has none. */
    public static final long NO_TIMESTAMP = Long.MIN_VALUE;

    private static final Object[] NO_VALUES = new Object[0];
    private static final long[] NO_TIMESTAMPS = new long[0];
    private static final int[] NO_INTS = new int[0];

    private final Object[] values;
    private final long[] timestamps;
    /** Whether {@link #timestamps} holds the records' timestamps; while false every record has none. */
    private boolean timestamped;
    /** Per record of {@link #addKeyed}: its key's hash code and key group; allocated on the first keyed record. */
    private int[] keyHashes = NO_INTS;
    private int[] keyGroups = NO_INTS;
    /** The max parallelism the key groups are of; 0 while the batch holds a record added without them. */
    private int keyGroupsOf;
    private final ChannelEvent event;
    private final boolean priority;
    private int size;

    public RecordBatch(int capacity) {
        if (capacity <= 0) {
            throw new IllegalArgumentException("batch capacity must be > 0, was " + capacity);
        }
        this.values = new Object[capacity];
        this.timestamps = new long[capacity];
        this.event = null;
        this.priority = false;
    }

    private RecordBatch(ChannelEvent event, boolean priority) {
        this.values = NO_VALUES;
        this.timestamps = NO_TIMESTAMPS;
        this.event = event;
        this.priority = priority;
    }

    /** A channel element that carries {@code event} and no records, in order; never recycled. */
    public static RecordBatch ofEvent(ChannelEvent event) {
        return new RecordBatch(java.util.Objects.requireNonNull(event, "event"), false);
    }

    /**
     * The copy of a {@link ChannelEvent#isPriority() priority} event that overtook the data queued in its
     * channel; its in-order copy follows in the channel as {@link #ofEvent}. Never recycled.
     */
    public static RecordBatch ofPriorityEvent(ChannelEvent event) {
        return new RecordBatch(java.util.Objects.requireNonNull(event, "event"), true);
    }

    /** Whether this element is the overtaking copy of a priority event (see {@link ChannelEvent#isPriority()}). */
    public boolean isPriority() {
        return priority;
    }

    /** Whether this element is an event rather than records. */
    public boolean isEvent() {
        return event != null;
    }

    /** The event this element carries, or null for a batch of records. */
    public ChannelEvent event() {
        return event;
    }

    /** Appends a record; returns true when the batch is now full. */
    public boolean add(Object value, long timestamp) {
        int i = size;
        values[i] = value;
        putTimestamp(i, timestamp);
        keyGroupsOf = 0;
        size = i + 1;
        return size == values.length;
    }

    /**
     * Appends a record of a keyBy edge with its key's hash code and its key group out of {@code maxParallelism};
     * returns true when the batch is now full. Every record of a batch must come this way with the same
     * {@code maxParallelism} for the batch to carry them ({@link #keyGroupsOf()}).
     */
    public boolean addKeyed(Object value, long timestamp, int keyHash, int keyGroup, int maxParallelism) {
        int i = size;
        if (i == 0) {
            keyGroupsOf = maxParallelism;
        } else if (keyGroupsOf != maxParallelism) {
            keyGroupsOf = 0;
        }
        if (keyHashes.length == 0) { // also after records added without key groups
            keyHashes = new int[values.length];
            keyGroups = new int[values.length];
        }
        values[i] = value;
        putTimestamp(i, timestamp);
        keyHashes[i] = keyHash;
        keyGroups[i] = keyGroup;
        size = i + 1;
        return size == values.length;
    }

    /**
     * Stores record {@code i}'s timestamp once the batch is timestamped; the first record with a timestamp
     * makes it so, marking the records before it as having none.
     */
    private void putTimestamp(int i, long timestamp) {
        if (timestamped) {
            timestamps[i] = timestamp;
        } else if (timestamp != NO_TIMESTAMP) {
            java.util.Arrays.fill(timestamps, 0, i, NO_TIMESTAMP);
            timestamps[i] = timestamp;
            timestamped = true;
        }
    }

    /**
     * The max parallelism whose key groups this batch carries, when every record came with its key hash and
     * key group ({@link #addKeyed}) out of the same one; 0 when it carries none. Only then do {@link #keyHash}
     * and {@link #keyGroup} hold them.
     */
    public int keyGroupsOf() {
        return keyGroupsOf;
    }

    /** The key hash code of record {@code index}; only while {@link #keyGroupsOf()} is not 0. */
    public int keyHash(int index) {
        return keyHashes[index];
    }

    /** The key group of record {@code index}; only while {@link #keyGroupsOf()} is not 0. */
    public int keyGroup(int index) {
        return keyGroups[index];
    }

    public int size() {
        return size;
    }

    public int capacity() {
        return values.length;
    }

    public boolean isEmpty() {
        return size == 0;
    }

    public Object value(int index) {
        return values[index];
    }

    /** The timestamp of record {@code index}, {@link #NO_TIMESTAMP} when it has none. */
    public long timestamp(int index) {
        return timestamped ? timestamps[index] : NO_TIMESTAMP;
    }

    /** Empties the batch and drops its references so recycled batches do not keep records alive. */
    public void clear() {
        java.util.Arrays.fill(values, 0, size, null);
        size = 0;
        keyGroupsOf = 0;
        timestamped = false;
    }
}
