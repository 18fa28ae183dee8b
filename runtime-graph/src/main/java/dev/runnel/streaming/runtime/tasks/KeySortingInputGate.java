package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * BATCH execution's sorted input of a keyed operator, as Flink's: reads the whole input (finished blocking
 * partitions), sorts the records by their serialized key (bytes compared unsigned, then the timestamp, records
 * with equal key and timestamp in arrival order) and hands them on key by key. Between two keys it lets the
 * operator finish the key ({@link KeyBoundary}), so that the key's timers fire and its final results are emitted
 * then, in key order — which is the order Flink's batch execution writes them. After the records, each channel's
 * events follow, as the channel delivered them.
 *
 * <p>The records are held in memory while sorted (Flink sorts in managed memory and spills; this does not spill).
 * Task thread only.
 */
final class KeySortingInputGate implements InputGate {

    /** What the task does between the last record of one key and the first of the next. */
    @FunctionalInterface
    interface KeyBoundary {
        void finishKey() throws Exception;
    }

    private static final int BATCH_SIZE = 512;

    private final InputGate input;
    private final KeySelector<Object, Object> keySelector;
    private final TypeSerializer<Object> keySerializer;
    private final KeyBoundary boundary;
    private final DataOutputSerializer keys = new DataOutputSerializer(1 << 16);
    private final List<List<ChannelEvent>> events = new ArrayList<>();
    private Object[] values = new Object[1024];
    private long[] timestamps = new long[1024];
    private int[] keyStart = new int[1024];
    private int[] keyEnd = new int[1024];
    private int size;
    private int[] order;
    private boolean drained;
    private int next;
    private int eventChannel;
    private int eventIndex;
    private int lastChannel;
    private boolean finished;
    private RecordBatch spare;

    @SuppressWarnings("unchecked")
    KeySortingInputGate(InputGate input, KeySelector<?, ?> keySelector, TypeSerializer<?> keySerializer,
            KeyBoundary boundary) {
        this.input = input;
        this.keySelector = (KeySelector<Object, Object>) keySelector;
        this.keySerializer = (TypeSerializer<Object>) keySerializer;
        this.boundary = boundary;
        for (int i = 0; i < input.getNumberOfInputChannels(); i++) {
            events.add(new ArrayList<>());
        }
    }

    @Override
    public int getNumberOfInputChannels() {
        return input.getNumberOfInputChannels();
    }

    @Override
    public RecordBatch pollNext() {
        try {
            if (!drained && !drain()) {
                return null;
            }
            if (next < size) {
                return nextKeyBatch();
            }
            return nextEvent();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    /** Reads what the input has; true once all of it is in and sorted. */
    private boolean drain() throws Exception {
        RecordBatch batch;
        while ((batch = input.pollNext()) != null) {
            if (batch.isEvent()) {
                events.get(input.lastChannel()).add(batch.event());
                continue;
            }
            for (int i = 0; i < batch.size(); i++) {
                add(batch.value(i), batch.timestamp(i));
            }
            input.recycle(batch);
        }
        if (!input.isFinished()) {
            return false;
        }
        order = sortedOrder();
        drained = true;
        return true;
    }

    private void add(Object value, long timestamp) throws Exception {
        if (size == values.length) {
            int capacity = size * 2;
            values = Arrays.copyOf(values, capacity);
            timestamps = Arrays.copyOf(timestamps, capacity);
            keyStart = Arrays.copyOf(keyStart, capacity);
            keyEnd = Arrays.copyOf(keyEnd, capacity);
        }
        values[size] = value;
        timestamps[size] = timestamp;
        keyStart[size] = keys.length();
        keySerializer.serialize(keySelector.getKey(value), keys);
        keyEnd[size] = keys.length();
        size++;
    }

    /** The records of the current key (a batch at most); finishes the previous key first when this one is new. */
    private RecordBatch nextKeyBatch() throws Exception {
        int first = order[next];
        if (next > 0 && compareKeys(order[next - 1], first) != 0) {
            boundary.finishKey();
        }
        RecordBatch batch = spare != null ? spare : new RecordBatch(BATCH_SIZE);
        spare = null;
        do {
            int record = order[next];
            batch.add(values[record], timestamps[record]);
            values[record] = null;
            next++;
        } while (next < size && batch.size() < batch.capacity() && compareKeys(first, order[next]) == 0);
        lastChannel = 0;
        return batch;
    }

    private RecordBatch nextEvent() {
        while (eventChannel < events.size()) {
            List<ChannelEvent> channel = events.get(eventChannel);
            if (eventIndex < channel.size()) {
                lastChannel = eventChannel;
                RecordBatch event = RecordBatch.ofEvent(channel.get(eventIndex++));
                if (eventChannel == events.size() - 1 && eventIndex == channel.size()) {
                    finished = true;
                }
                return event;
            }
            eventChannel++;
            eventIndex = 0;
        }
        finished = true;
        return null;
    }

    /** Record indexes sorted by key bytes (unsigned), then timestamp; stable. */
    private int[] sortedOrder() {
        int[] sorted = new int[size];
        for (int i = 0; i < size; i++) {
            sorted[i] = i;
        }
        mergeSort(sorted, new int[size], 0, size);
        return sorted;
    }

    private void mergeSort(int[] a, int[] scratch, int from, int to) {
        if (to - from < 2) {
            return;
        }
        int mid = (from + to) >>> 1;
        mergeSort(a, scratch, from, mid);
        mergeSort(a, scratch, mid, to);
        if (compare(a[mid - 1], a[mid]) <= 0) {
            return;
        }
        System.arraycopy(a, from, scratch, from, to - from);
        int left = from;
        int right = mid;
        for (int k = from; k < to; k++) {
            if (right >= to || (left < mid && compare(scratch[left], scratch[right]) <= 0)) {
                a[k] = scratch[left++];
            } else {
                a[k] = scratch[right++];
            }
        }
    }

    private int compare(int x, int y) {
        int byKey = compareKeys(x, y);
        return byKey != 0 ? byKey : Long.compare(timestamps[x], timestamps[y]);
    }

    private int compareKeys(int x, int y) {
        byte[] bytes = keys.getSharedBuffer();
        return Arrays.compareUnsigned(bytes, keyStart[x], keyEnd[x], bytes, keyStart[y], keyEnd[y]);
    }

    @Override
    public boolean isAvailable() {
        return !finished && (drained || input.isAvailable() || input.isFinished());
    }

    @Override
    public CompletableFuture<Void> getAvailableFuture() {
        return drained || input.isFinished() ? AVAILABLE : input.getAvailableFuture();
    }

    @Override
    public int lastChannel() {
        return lastChannel;
    }

    @Override
    public void recycle(RecordBatch batch) {
        batch.clear();
        spare = batch;
    }

    /** BATCH takes no checkpoints, so nothing aligns on this input; blocking is passed on for completeness. */
    @Override
    public void blockChannel(int channel) {
        input.blockChannel(channel);
    }

    @Override
    public boolean isBlocked(int channel) {
        return input.isBlocked(channel);
    }

    @Override
    public void resumeAllChannels() {
        input.resumeAllChannels();
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    @Override
    public void close() {
        input.close();
    }
}
