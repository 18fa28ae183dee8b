package dev.runnel.runtime.state.rocksdb;

import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotWriter;
import dev.runnel.runtime.state.snapshot.format.StateKind;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import dev.runnel.runtime.state.ttl.TtlSnapshotFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.Snapshot;

/**
 * Writes a backend's column families in Runnel's snapshot format, copying bytes straight from RocksDB
 * without deserializing anything.
 *
 * <p>Each state gets one iterator over the snapshot's key-group range. Because keys start with the
 * key group, walking the range key group by key group moves every iterator forward only: no seek
 * per key group. Layouts are converted to the format's entry forms on the way:
 * <ul>
 *   <li>value, reducing, aggregating: {@code bytes(key[2:]) bytes(value)}, where the value cache's
 *       entries at the snapshot's moment ({@link RocksDBDirtyValues}) take the place of RocksDB's;
 *   <li>list: the stored value already is {@code bytes(element)*}; the element count is prepended;
 *   <li>map: consecutive RocksDB entries of one key and namespace (told apart with the user-key
 *       length stored in the value) become one entry of {@code (bytes(userKey) flag [bytes(value)])*};
 *   <li>timer queues: {@code bytes(element)}.
 * </ul>
 * For states with time-to-live, values, list elements and map values whose timestamp (their first
 * 8 bytes) has expired are left out, judged against the TTL clock's time at the snapshot's
 * synchronous phase.
 *
 * <p>Reads through a native RocksDB {@link Snapshot} of the live database, or from a read-only
 * database opened on a checkpoint of it (no snapshot needed: nothing writes there), so the backend
 * may go on changing (on the task thread) while this writes, on any one thread. Either way the
 * bytes are the same for the same state. The database, snapshot and column families belong to the
 * caller; the iterators and options this creates are closed before {@link #write} returns.
 */
final class RocksDBSnapshotWriter {

    /** What the writer needs of a state, captured at the snapshot's synchronous phase. */
    record SnapshotState(ColumnFamilyHandle columnFamily, StateMetaInfo metaInfo, TtlSnapshotFilter ttlFilter) {

        /** The state as it is registered now. */
        static SnapshotState of(RocksDBRegisteredState state) {
            return new SnapshotState(state.columnFamily, state.metaInfo, state.ttlFilter);
        }

        String name() {
            return metaInfo.name();
        }

        StateKind kind() {
            return metaInfo.kind();
        }
    }

    /** Asks whether to go on; throws to stop the write (a released snapshot). */
    @FunctionalInterface
    interface ReleaseCheck {
        void checkNotReleased() throws IOException;
    }

    private final RocksDB db;
    private final Snapshot snapshot;
    private final RocksDBDirtyValues dirtyValues;
    private final List<SnapshotState> states;
    /** The column family to read each state from, in {@link #states}' order. */
    private final List<ColumnFamilyHandle> sources;
    private final ReleaseCheck releaseCheck;
    private final DataInputDeserializer in = new DataInputDeserializer();
    /** The entries of the map key being collected, written once its count is known. */
    private final DataOutputSerializer mapEntries = new DataOutputSerializer(1024);
    private byte[] keyBuffer = new byte[256];
    private int keyLength;
    private byte[] valueBuffer = new byte[1024];
    private int valueLength;
    /** The list elements that survive TTL filtering, re-encoded. */
    private final DataOutputSerializer liveElements = new DataOutputSerializer(1024);
    /** The TTL filter of the state being written, or null. */
    private TtlSnapshotFilter ttlFilter;
    /** The TTL clock's time at the snapshot's synchronous phase; expiry is judged against it. */
    private final long now;

    /**
     * @param db the database to read: the live one, or one opened read-only on a checkpoint
     * @param snapshot the native snapshot to read, or null to read {@code db} as it is (a checkpoint)
     * @param sources the column family of {@code db} to read for each state, in the states' order
     *     (the states' own handles for the live database)
     * @param dirtyValues the value cache's entries at the snapshot's moment, which take the place of
     *     RocksDB's values for their keys
     * @param states the states to write, in snapshot order
     * @param ttlNow the TTL clock's time at the synchronous phase
     * @param releaseCheck called before each key group
     */
    RocksDBSnapshotWriter(RocksDB db, Snapshot snapshot, List<ColumnFamilyHandle> sources, RocksDBDirtyValues dirtyValues,
            List<SnapshotState> states, long ttlNow, ReleaseCheck releaseCheck) {
        if (sources.size() != states.size()) {
            throw new IllegalArgumentException("one column family per state: " + sources.size() + " for " + states.size());
        }
        this.db = db;
        this.sources = sources;
        this.snapshot = snapshot;
        this.dirtyValues = dirtyValues;
        this.states = states;
        this.now = ttlNow;
        this.releaseCheck = releaseCheck;
    }

    KeyGroupRangeOffsets write(KeyGroupRange range, OutputStream out) throws IOException {
        List<StateMetaInfo> metaInfos = new ArrayList<>(states.size());
        for (SnapshotState state : states) {
            metaInfos.add(state.metaInfo());
        }
        KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(out, range, metaInfos);
        if (range.getNumberOfKeyGroups() == 0) {
            return writer.finish();
        }
        List<AutoCloseable> natives = new ArrayList<>();
        try {
            RocksIterator[] iterators = new RocksIterator[states.size()];
            Slice upperBound = own(natives, new Slice(RocksDBKeyBuilder.keyGroupPrefix(range.getEndKeyGroup() + 1)));
            ReadOptions options = own(natives, new ReadOptions()
                    .setIterateUpperBound(upperBound).setFillCache(false));
            if (snapshot != null) {
                options.setSnapshot(snapshot);
            }
            RocksDBDirtyValues.Cursor[] cached = new RocksDBDirtyValues.Cursor[states.size()];
            for (int i = 0; i < iterators.length; i++) {
                iterators[i] = own(natives, db.newIterator(sources.get(i), options));
                iterators[i].seek(RocksDBKeyBuilder.keyGroupPrefix(range.getStartKeyGroup()));
                cached[i] = cachedValues(states.get(i), range);
            }
            for (int keyGroup : range) {
                releaseCheck.checkNotReleased();
                writer.startKeyGroup(keyGroup);
                for (int i = 0; i < iterators.length; i++) {
                    writeSection(writer, i, states.get(i), iterators[i], cached[i], keyGroup);
                }
            }
            for (RocksIterator iterator : iterators) {
                iterator.status();
            }
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("read the state for a snapshot of", "key groups " + range, e);
        } finally {
            closeAll(natives);
        }
        return writer.finish();
    }

    /**
     * The value cache's entries of {@code state} from the range's first key group on, or null: only
     * single-value states are cached.
     */
    private RocksDBDirtyValues.Cursor cachedValues(SnapshotState state, KeyGroupRange range) {
        RocksDBDirtyValues.Cursor cursor = state.kind().hasSingleValue() ? dirtyValues.cursor(state.columnFamily()) : null;
        while (cursor != null && cursor.isValid() && cursor.keyGroup() < range.getStartKeyGroup()) {
            cursor.next();
        }
        return cursor;
    }

    private void writeSection(KeyedSnapshotWriter writer, int stateIndex, SnapshotState state,
            RocksIterator iterator, RocksDBDirtyValues.Cursor cached, int keyGroup) throws IOException {
        boolean inRocksDB = iterator.isValid() && currentKeyGroupIs(iterator, keyGroup);
        if (!inRocksDB && !(cached != null && cached.isValid() && cached.keyGroup() == keyGroup)) {
            return;
        }
        ttlFilter = state.ttlFilter();
        DataOutputSerializer section = writer.startSection(stateIndex);
        int entries = switch (state.kind()) {
            case VALUE, REDUCING, AGGREGATING -> writeValues(section, iterator, cached, keyGroup);
            case LIST -> writeLists(section, iterator, keyGroup, state);
            case MAP -> writeMaps(section, iterator, keyGroup, state);
            case PRIORITY_QUEUE -> writeElements(section, iterator, keyGroup);
        };
        writer.endSection(entries);
    }

    /**
     * Writes the key group's values, merging RocksDB's entries with the value cache's (both in key
     * order): for a key in both, the cache's value, or nothing for a cached delete.
     */
    private int writeValues(DataOutputSerializer section, RocksIterator iterator, RocksDBDirtyValues.Cursor cached,
            int keyGroup) {
        int count = 0;
        while (true) {
            boolean fromRocksDB = iterator.isValid() && currentKeyGroupIs(iterator, keyGroup);
            boolean fromCache = cached != null && cached.isValid() && cached.keyGroup() == keyGroup;
            if (!fromRocksDB && !fromCache) {
                return count;
            }
            // < 0: RocksDB's key comes first; 0: the same key, the cache's value counts; > 0: the cache's first
            int order = !fromCache ? -1 : !fromRocksDB ? 1 : -cached.compareTo(keyBuffer, keyLength);
            if (order < 0) {
                readValue(iterator);
                count += writeValue(section, keyBuffer, 0, keyLength, valueBuffer, 0, valueLength);
                iterator.next();
                continue;
            }
            if (order == 0) {
                iterator.next();
            }
            if (!cached.isDelete()) {
                count += writeValue(section, cached.array(), cached.keyOffset(), cached.keyLength(), cached.array(),
                        cached.valueOffset(), cached.valueLength());
            }
            cached.next();
        }
    }

    /** Writes one entry unless its TTL expired; returns how many it wrote (0 or 1). */
    private int writeValue(DataOutputSerializer section, byte[] key, int keyOffset, int keyLength, byte[] value,
            int valueOffset, int valueLength) {
        if (ttlFilter != null && expired(value, valueOffset, valueLength)) {
            return 0;
        }
        int start = RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES;
        KeyedSnapshotWriter.writeBytes(section, key, keyOffset + start, keyLength - start);
        KeyedSnapshotWriter.writeBytes(section, value, valueOffset, valueLength);
        return 1;
    }

    /** Whether a TTL value at {@code offset} expired; a value too short to hold a timestamp is kept. */
    private boolean expired(byte[] bytes, int offset, int length) {
        return length >= Long.BYTES && ttlFilter.isExpired(bytes, offset, now);
    }

    private int writeLists(DataOutputSerializer section, RocksIterator iterator, int keyGroup,
            SnapshotState state) throws IOException {
        int count = 0;
        for (; iterator.isValid() && currentKeyGroupIs(iterator, keyGroup); iterator.next()) {
            readValue(iterator);
            byte[] elementBytes = valueBuffer;
            int elementBytesLength = valueLength;
            int elements;
            try {
                if (ttlFilter == null) {
                    elements = RocksDBListState.countElements(valueBuffer, 0, valueLength, in);
                } else {
                    elements = keepLiveElements();
                    elementBytes = liveElements.getSharedBuffer();
                    elementBytesLength = liveElements.length();
                }
            } catch (IOException e) {
                throw new IOException(String.format("List state '%s' holds a corrupt value in key group %s: %s",
                        state.name(), keyGroup, e.getMessage()), e);
            }
            if (elements == 0) {
                continue;
            }
            writeKeyWithoutKeyGroup(section);
            section.writeVarInt(elements);
            section.write(elementBytes, 0, elementBytesLength);
            count++;
        }
        return count;
    }

    private int writeMaps(DataOutputSerializer section, RocksIterator iterator, int keyGroup,
            SnapshotState state) throws IOException {
        int count = 0;
        byte[] groupKey = null;
        int groupKeyLength = 0;
        int groupSize = 0;
        mapEntries.clear();
        for (; iterator.isValid() && currentKeyGroupIs(iterator, keyGroup); iterator.next()) {
            readValue(iterator);
            in.setBuffer(valueBuffer, 0, valueLength);
            int userKeyLength;
            boolean hasValue;
            try {
                userKeyLength = RocksDBMapState.userKeyLengthOf(in);
                hasValue = in.readBoolean();
            } catch (IOException e) {
                throw new IOException(String.format("Map state '%s' holds a corrupt value in key group %s: %s",
                        state.name(), keyGroup, e.getMessage()), e);
            }
            int valueStart = in.arrayPosition();
            if (hasValue && ttlFilter != null && expired(valueBuffer, valueStart, valueLength - valueStart)) {
                continue;
            }
            int prefixLength = keyLength - userKeyLength;
            if (userKeyLength < 0 || prefixLength < RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES) {
                throw new IOException(String.format("Map state '%s' holds an entry in key group %s whose user key "
                        + "length %s exceeds its RocksDB key of %s bytes", state.name(), keyGroup, userKeyLength, keyLength));
            }
            boolean sameMap = groupKey != null && prefixLength == groupKeyLength
                    && Arrays.equals(keyBuffer, 0, prefixLength, groupKey, 0, groupKeyLength);
            if (!sameMap) {
                if (groupSize > 0) {
                    writeMap(section, groupKey, groupKeyLength, groupSize);
                    count++;
                }
                groupKey = Arrays.copyOf(keyBuffer, prefixLength);
                groupKeyLength = prefixLength;
                groupSize = 0;
                mapEntries.clear();
            }
            KeyedSnapshotWriter.writeBytes(mapEntries, keyBuffer, prefixLength, userKeyLength);
            mapEntries.writeBoolean(hasValue);
            if (hasValue) {
                KeyedSnapshotWriter.writeBytes(mapEntries, valueBuffer, valueStart, valueLength - valueStart);
            }
            groupSize++;
        }
        if (groupSize > 0) {
            writeMap(section, groupKey, groupKeyLength, groupSize);
            count++;
        }
        return count;
    }

    /** Copies the unexpired elements of the list in {@link #valueBuffer} to {@link #liveElements}. */
    private int keepLiveElements() throws IOException {
        liveElements.clear();
        in.setBuffer(valueBuffer, 0, valueLength);
        int count = 0;
        while (in.available() > 0) {
            int length = in.readLength("list element", 1);
            int offset = in.arrayPosition();
            in.skipBytes(length);
            if (!expired(valueBuffer, offset, length)) {
                KeyedSnapshotWriter.writeBytes(liveElements, valueBuffer, offset, length);
                count++;
            }
        }
        return count;
    }

    private void writeMap(DataOutputSerializer section, byte[] groupKey, int groupKeyLength, int size) {
        int start = RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES;
        KeyedSnapshotWriter.writeBytes(section, groupKey, start, groupKeyLength - start);
        section.writeVarInt(size);
        section.write(mapEntries.getSharedBuffer(), 0, mapEntries.length());
    }

    private int writeElements(DataOutputSerializer section, RocksIterator iterator, int keyGroup) {
        int count = 0;
        for (; iterator.isValid() && currentKeyGroupIs(iterator, keyGroup); iterator.next()) {
            writeKeyWithoutKeyGroup(section);
            count++;
        }
        return count;
    }

    /** Reads the iterator's key into {@link #keyBuffer} and checks its key-group prefix. */
    private boolean currentKeyGroupIs(RocksIterator iterator, int keyGroup) {
        keyLength = iterator.key(keyBuffer);
        if (keyLength > keyBuffer.length) {
            keyBuffer = new byte[Math.max(keyLength, keyBuffer.length * 2)];
            keyLength = iterator.key(keyBuffer);
        }
        return keyLength >= RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES && RocksDBKeyBuilder.readKeyGroup(keyBuffer) == keyGroup;
    }

    private void readValue(RocksIterator iterator) {
        valueLength = iterator.value(valueBuffer);
        if (valueLength > valueBuffer.length) {
            valueBuffer = new byte[Math.max(valueLength, valueBuffer.length * 2)];
            valueLength = iterator.value(valueBuffer);
        }
    }

    private void writeKeyWithoutKeyGroup(DataOutputSerializer section) {
        int start = RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES;
        KeyedSnapshotWriter.writeBytes(section, keyBuffer, start, keyLength - start);
    }

    private static <T extends AutoCloseable> T own(List<AutoCloseable> natives, T object) {
        natives.add(object);
        return object;
    }

    private static void closeAll(List<AutoCloseable> natives) {
        // Iterators first, then the options and bound they use.
        for (int i = natives.size() - 1; i >= 0; i--) {
            try {
                natives.get(i).close();
            } catch (Exception ignored) {
                // closing a RocksDB iterator, options or slice does not fail
            }
        }
    }
}
