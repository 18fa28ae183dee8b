package dev.runnel.runtime.io;

/**
 * What a channel carries: either a batch of records in flight between two subtasks (values and their
 * timestamps in parallel arrays) or exactly one {@link ChannelEvent} ({@link #isEvent()}), as Flink's
 * buffers are data or event. One element type keeps the channel typed, so a consumer dispatches with one
 * boolean per batch instead of type tests. Moving records a batch at a time keeps the cost of handing data
 * between threads (one queue operation, one possible wake-up) off the per-record path.
 *
 * <p>Ownership moves with the batch: the writer fills it, hands it to a channel and does not touch
 * it again; the reader consumes it and gives it back through {@link InputGate#recycle(RecordBatch)}.
 * Never shared by two threads at once. {@link #NO_TIMESTAMP} marks a record without a timestamp.
 */
public final class RecordBatch {

    /** The timestamp of a record that has none. */
    public static final long NO_TIMESTAMP = Long.MIN_VALUE;

    private static final Object[] NO_VALUES = new Object[0];
    private static final long[] NO_TIMESTAMPS = new long[0];

    private final Object[] values;
    private final long[] timestamps;
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
        timestamps[i] = timestamp;
        size = i + 1;
        return size == values.length;
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

    public long timestamp(int index) {
        return timestamps[index];
    }

    /** Empties the batch and drops its references so recycled batches do not keep records alive. */
    public void clear() {
        java.util.Arrays.fill(values, 0, size, null);
        size = 0;
    }
}
