package dev.runnel.runtime.state.rocksdb;

import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotWriter;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import dev.runnel.runtime.state.ttl.TtlSnapshotFilter;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;

/**
 * Writes a backend's column families in Runnel's snapshot format, copying bytes straight from RocksDB
 * without deserializing anything.
 *
 * <p>Each state gets one iterator over the snapshot's key-group range. Because keys start with the
 * key group, walking the range key group by key group moves every iterator forward only: no seek
 * per key group. Layouts are converted to the format's entry forms on the way:
 * <ul>
 *   <li>value, reducing, aggregating: {@code bytes(key[2:]) bytes(value)};
 *   <li>list: the stored value already is {@code bytes(element)*}; the element count is prepended;
 *   <li>map: consecutive RocksDB entries of one key and namespace (told apart with the user-key
 *       length stored in the value) become one entry of {@code (bytes(userKey) flag [bytes(value)])*};
 *   <li>timer queues: {@code bytes(element)}.
 * </ul>
 * For states with time-to-live, values, list elements and map values whose timestamp (their first
 * 8 bytes) has expired are left out, judged against the TTL clock's time at the snapshot's start.
 *
 * <p>Task thread only; the backend must not change while the snapshot is written. All native
 * objects are closed before {@link #write} returns.
 */
final class RocksDBSnapshotWriter {

    private final RocksDB db;
    private final List<RocksDBRegisteredState> states;
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
    /** The TTL clock's time when the snapshot started; expiry is judged against it. */
    private long now;

    RocksDBSnapshotWriter(RocksDB db, List<RocksDBRegisteredState> states) {
        this.db = db;
        this.states = states;
    }

    KeyGroupRangeOffsets write(KeyGroupRange range, OutputStream out) throws IOException {
        List<StateMetaInfo> metaInfos = new ArrayList<>(states.size());
        for (RocksDBRegisteredState state : states) {
            metaInfos.add(state.metaInfo);
        }
        KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(out, range, metaInfos);
        for (RocksDBRegisteredState state : states) {
            if (state.ttlFilter != null) {
                now = state.ttlFilter.now();
                break;
            }
        }
        if (range.getNumberOfKeyGroups() == 0) {
            return writer.finish();
        }
        List<AutoCloseable> natives = new ArrayList<>();
        try {
            RocksIterator[] iterators = new RocksIterator[states.size()];
            Slice upperBound = own(natives, new Slice(RocksDBKeyBuilder.keyGroupPrefix(range.getEndKeyGroup() + 1)));
            ReadOptions options = own(natives, new ReadOptions().setIterateUpperBound(upperBound).setFillCache(false));
            for (int i = 0; i < iterators.length; i++) {
                iterators[i] = own(natives, db.newIterator(states.get(i).columnFamily, options));
                iterators[i].seek(RocksDBKeyBuilder.keyGroupPrefix(range.getStartKeyGroup()));
            }
            for (int keyGroup : range) {
                writer.startKeyGroup(keyGroup);
                for (int i = 0; i < iterators.length; i++) {
                    writeSection(writer, i, states.get(i), iterators[i], keyGroup);
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

    private void writeSection(KeyedSnapshotWriter writer, int stateIndex, RocksDBRegisteredState state,
            RocksIterator iterator, int keyGroup) throws IOException {
        if (!iterator.isValid() || !currentKeyGroupIs(iterator, keyGroup)) {
            return;
        }
        ttlFilter = state.ttlFilter;
        DataOutputSerializer section = writer.startSection(stateIndex);
        int entries = switch (state.kind()) {
            case VALUE, REDUCING, AGGREGATING -> writeValues(section, iterator, keyGroup);
            case LIST -> writeLists(section, iterator, keyGroup, state);
            case MAP -> writeMaps(section, iterator, keyGroup, state);
            case PRIORITY_QUEUE -> writeElements(section, iterator, keyGroup);
        };
        writer.endSection(entries);
    }

    private int writeValues(DataOutputSerializer section, RocksIterator iterator, int keyGroup) {
        int count = 0;
        for (; iterator.isValid() && currentKeyGroupIs(iterator, keyGroup); iterator.next()) {
            readValue(iterator);
            if (ttlFilter != null && expired(valueBuffer, 0, valueLength)) {
                continue;
            }
            writeKeyWithoutKeyGroup(section);
            KeyedSnapshotWriter.writeBytes(section, valueBuffer, 0, valueLength);
            count++;
        }
        return count;
    }

    /** Whether a TTL value at {@code offset} expired; a value too short to hold a timestamp is kept. */
    private boolean expired(byte[] bytes, int offset, int length) {
        return length >= Long.BYTES && ttlFilter.isExpired(bytes, offset, now);
    }

    private int writeLists(DataOutputSerializer section, RocksIterator iterator, int keyGroup,
            RocksDBRegisteredState state) throws IOException {
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
            RocksDBRegisteredState state) throws IOException {
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
