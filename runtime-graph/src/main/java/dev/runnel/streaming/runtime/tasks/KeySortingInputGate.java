package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.CompletableFuture;

/**
 * BATCH execution's sorted input of a keyed operator, as Flink's: reads the whole input (finished blocking
 * partitions), sorts the records by their serialized key (bytes compared unsigned), then by timestamp (records
 * with equal key and timestamp keep their arrival order), and hands them on key by key. Between two keys it lets
 * the operator finish the key ({@link KeyBoundary}), so that the key's timers fire and its final results are
 * emitted then, in key order — the order Flink's batch execution writes them in. After the records, each
 * channel's events follow, as the channel delivered them.
 *
 * <p>Records are kept serialized (key, timestamp, value) in a buffer of at most {@code memoryBytes}; a full
 * buffer is sorted and spilled to a run file in {@code spillDirectory}, and the runs are merged at the end, so
 * the input may be larger than the heap. Run files are deleted when read to the end or when the gate closes.
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
    private final TypeSerializer<Object> valueSerializer;
    private final KeyBoundary boundary;
    private final long memoryBytes;
    private final Path spillDirectory;
    private final List<List<ChannelEvent>> events = new ArrayList<>();
    private final List<Path> runs = new ArrayList<>();

    /** The records not spilled: each is key bytes, then value bytes, in {@link #arena}. */
    private final DataOutputSerializer arena = new DataOutputSerializer(1 << 16);
    private int[] keyStart = new int[1024];
    private int[] valueStart = new int[1024];
    private int[] end = new int[1024];
    private long[] timestamps = new long[1024];
    private int size;

    private RecordSource sorted;
    private byte[] previousKey = new byte[64];
    private int previousKeyLength = -1;
    private boolean drained;
    private int eventChannel;
    private int eventIndex;
    private int lastChannel;
    private boolean finished;
    private RecordBatch spare;

    @SuppressWarnings("unchecked")
    KeySortingInputGate(InputGate input, KeySelector<?, ?> keySelector, TypeSerializer<?> keySerializer,
            TypeSerializer<?> valueSerializer, long memoryBytes, Path spillDirectory, KeyBoundary boundary) {
        this.input = input;
        this.keySelector = (KeySelector<Object, Object>) keySelector;
        this.keySerializer = (TypeSerializer<Object>) keySerializer;
        this.valueSerializer = (TypeSerializer<Object>) valueSerializer;
        this.memoryBytes = memoryBytes;
        this.spillDirectory = spillDirectory;
        this.boundary = boundary;
        for (int i = 0; i < input.getNumberOfInputChannels(); i++) {
            events.add(new ArrayList<>());
        }
    }

    /** How many run files the input was spilled to (for tests and logs). */
    int spilledRuns() {
        return runs.size();
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
            if (sorted.hasNext()) {
                return nextRecords();
            }
            return nextEvent();
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Sorting the BATCH input by key failed: " + e.getMessage(), e);
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
        int[] order = sortedOrder();
        if (runs.isEmpty()) {
            sorted = new InMemoryRun(order);
        } else {
            if (size > 0) {
                spill(order);
            }
            sorted = new MergedRuns();
        }
        drained = true;
        return true;
    }

    private void add(Object value, long timestamp) throws Exception {
        if (size == keyStart.length) {
            int capacity = size * 2;
            keyStart = Arrays.copyOf(keyStart, capacity);
            valueStart = Arrays.copyOf(valueStart, capacity);
            end = Arrays.copyOf(end, capacity);
            timestamps = Arrays.copyOf(timestamps, capacity);
        }
        keyStart[size] = arena.length();
        keySerializer.serialize(keySelector.getKey(value), arena);
        valueStart[size] = arena.length();
        valueSerializer.serialize(value, arena);
        end[size] = arena.length();
        timestamps[size] = timestamp;
        size++;
        if (arena.length() >= memoryBytes) {
            spill(sortedOrder());
        }
    }

    /** Writes the buffered records in {@code order} as one run file: (key length, key, timestamp, value length, value)*. */
    private void spill(int[] order) throws IOException {
        Files.createDirectories(spillDirectory);
        Path run = Files.createTempFile(spillDirectory, "sort-run-", ".bin");
        runs.add(run);
        byte[] bytes = arena.getSharedBuffer();
        try (java.io.DataOutputStream out = new java.io.DataOutputStream(
                new BufferedOutputStream(Files.newOutputStream(run), 1 << 16))) {
            for (int record : order) {
                out.writeInt(valueStart[record] - keyStart[record]);
                out.write(bytes, keyStart[record], valueStart[record] - keyStart[record]);
                out.writeLong(timestamps[record]);
                out.writeInt(end[record] - valueStart[record]);
                out.write(bytes, valueStart[record], end[record] - valueStart[record]);
            }
        }
        arena.clear();
        size = 0;
    }

    /** The next records of one key (a batch at most); finishes the previous key first when this one is new. */
    private RecordBatch nextRecords() throws Exception {
        if (previousKeyLength >= 0 && !sorted.keyEquals(previousKey, previousKeyLength)) {
            boundary.finishKey();
        }
        previousKeyLength = sorted.copyKey(this);
        RecordBatch batch = spare != null ? spare : new RecordBatch(BATCH_SIZE);
        spare = null;
        do {
            batch.add(sorted.value(), sorted.timestamp());
            sorted.advance();
        } while (batch.size() < batch.capacity() && sorted.hasNext() && sorted.keyEquals(previousKey, previousKeyLength));
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

    /** Indexes of the buffered records sorted by key bytes (unsigned), then timestamp; stable. */
    private int[] sortedOrder() {
        int[] order = new int[size];
        for (int i = 0; i < size; i++) {
            order[i] = i;
        }
        mergeSort(order, new int[size], 0, size);
        return order;
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
        byte[] bytes = arena.getSharedBuffer();
        int byKey = Arrays.compareUnsigned(bytes, keyStart[x], valueStart[x], bytes, keyStart[y], valueStart[y]);
        return byKey != 0 ? byKey : Long.compare(timestamps[x], timestamps[y]);
    }

    private byte[] keyBuffer(int length) {
        if (previousKey.length < length) {
            previousKey = new byte[Math.max(length, previousKey.length * 2)];
        }
        return previousKey;
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
        if (sorted instanceof MergedRuns merged) {
            merged.close();
        }
        for (Path run : runs) {
            try {
                Files.deleteIfExists(run);
            } catch (IOException e) {
                // in the job's working directory, which goes when the job ends
            }
        }
        input.close();
    }

    /** The sorted records, one at a time. */
    private interface RecordSource {
        boolean hasNext();

        boolean keyEquals(byte[] key, int length);

        /** Copies the current record's key into the gate's key buffer; returns its length. */
        int copyKey(KeySortingInputGate gate);

        Object value() throws IOException;

        long timestamp();

        void advance() throws IOException;
    }

    /** The buffered records, nothing spilled. */
    private final class InMemoryRun implements RecordSource {
        private final int[] order;
        private final DataInputDeserializer in = new DataInputDeserializer();
        private int next;

        InMemoryRun(int[] order) {
            this.order = order;
        }

        @Override
        public boolean hasNext() {
            return next < order.length;
        }

        @Override
        public boolean keyEquals(byte[] key, int length) {
            int r = order[next];
            return Arrays.equals(arena.getSharedBuffer(), keyStart[r], valueStart[r], key, 0, length);
        }

        @Override
        public int copyKey(KeySortingInputGate gate) {
            int r = order[next];
            int length = valueStart[r] - keyStart[r];
            System.arraycopy(arena.getSharedBuffer(), keyStart[r], gate.keyBuffer(length), 0, length);
            return length;
        }

        @Override
        public Object value() throws IOException {
            int r = order[next];
            in.setBuffer(arena.getSharedBuffer(), valueStart[r], end[r] - valueStart[r]);
            return valueSerializer.deserialize(in);
        }

        @Override
        public long timestamp() {
            return timestamps[order[next]];
        }

        @Override
        public void advance() {
            next++;
        }
    }

    /** The spilled runs merged: the smallest (key, timestamp) first, the earlier run on ties (stable). */
    private final class MergedRuns implements RecordSource {
        private final PriorityQueue<RunCursor> heads = new PriorityQueue<>();
        private final List<RunCursor> cursors = new ArrayList<>();
        private final DataInputDeserializer in = new DataInputDeserializer();

        MergedRuns() throws IOException {
            for (int i = 0; i < runs.size(); i++) {
                RunCursor cursor = new RunCursor(runs.get(i), i);
                cursors.add(cursor);
                if (cursor.read()) {
                    heads.add(cursor);
                }
            }
        }

        @Override
        public boolean hasNext() {
            return !heads.isEmpty();
        }

        @Override
        public boolean keyEquals(byte[] key, int length) {
            RunCursor head = heads.peek();
            return Arrays.equals(head.key, 0, head.keyLength, key, 0, length);
        }

        @Override
        public int copyKey(KeySortingInputGate gate) {
            RunCursor head = heads.peek();
            System.arraycopy(head.key, 0, gate.keyBuffer(head.keyLength), 0, head.keyLength);
            return head.keyLength;
        }

        @Override
        public Object value() throws IOException {
            RunCursor head = heads.peek();
            in.setBuffer(head.value, 0, head.valueLength);
            return valueSerializer.deserialize(in);
        }

        @Override
        public long timestamp() {
            return heads.peek().timestamp;
        }

        @Override
        public void advance() throws IOException {
            RunCursor head = heads.poll();
            if (head.read()) {
                heads.add(head);
            }
        }

        void close() {
            cursors.forEach(RunCursor::close);
        }
    }

    /** One run file, read record by record. */
    private static final class RunCursor implements Comparable<RunCursor> {
        private final Path file;
        private final int index;
        private DataInputStream in;
        private byte[] key = new byte[64];
        private int keyLength;
        private long timestamp;
        private byte[] value = new byte[256];
        private int valueLength;

        RunCursor(Path file, int index) throws IOException {
            this.file = file;
            this.index = index;
            this.in = new DataInputStream(new BufferedInputStream(Files.newInputStream(file), 1 << 16));
        }

        /** Reads the next record; false (and the file closed and deleted) at the end of the run. */
        boolean read() throws IOException {
            int length;
            try {
                length = in.readInt();
            } catch (EOFException end) {
                close();
                return false;
            }
            keyLength = length;
            key = readInto(key, keyLength);
            timestamp = in.readLong();
            valueLength = in.readInt();
            value = readInto(value, valueLength);
            return true;
        }

        private byte[] readInto(byte[] buffer, int length) throws IOException {
            byte[] target = buffer.length >= length ? buffer : new byte[Math.max(length, buffer.length * 2)];
            in.readFully(target, 0, length);
            return target;
        }

        @Override
        public int compareTo(RunCursor other) {
            int byKey = Arrays.compareUnsigned(key, 0, keyLength, other.key, 0, other.keyLength);
            if (byKey != 0) {
                return byKey;
            }
            int byTime = Long.compare(timestamp, other.timestamp);
            return byTime != 0 ? byTime : Integer.compare(index, other.index);
        }

        void close() {
            if (in == null) {
                return;
            }
            try {
                in.close();
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // in the job's working directory, which goes when the job ends
            }
            in = null;
        }
    }
}
