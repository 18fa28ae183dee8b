package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotReader;
import dev.runnel.runtime.state.snapshot.format.SnapshotEntryCursor;
import dev.runnel.runtime.state.snapshot.format.SnapshotSection;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * Loads snapshots into a fresh RocksDB instance at backend creation, as raw bytes: no serializer is
 * needed, because every part of an entry is length-prefixed in the snapshot. Each snapshot state gets
 * its column family (one per name, shared by several snapshots of the same state, which must then
 * agree on its metadata); serializer identities are checked later, when the operator registers the
 * state.
 *
 * <p>Only the key groups both a snapshot and this backend hold are read, so a snapshot of any
 * parallelism restores into any other. Entries go into write batches of about
 * {@value #BATCH_BYTES} bytes without write-ahead log. Corrupt or truncated snapshots fail with the
 * shared reader's message, which names the snapshot, key group and state.
 *
 * <p>Task thread (construction) only. Closes every reader and batch it opens.
 */
final class RocksDBRestoreOperation {

    private static final int BATCH_BYTES = 4 << 20;

    private final RocksDBInstance instance;
    private final KeyGroupRange range;
    private final String keySerializerIdentity;
    private final Map<String, RocksDBRegisteredState> states;
    /** Direct buffers, because write batches take byte-buffer keys and values only when direct. */
    private ByteBuffer key = ByteBuffer.allocateDirect(256);
    private ByteBuffer value = ByteBuffer.allocateDirect(1024);

    RocksDBRestoreOperation(RocksDBInstance instance, KeyGroupRange range, String keySerializerIdentity,
            Map<String, RocksDBRegisteredState> states) {
        this.instance = instance;
        this.range = range;
        this.keySerializerIdentity = keySerializerIdentity;
        this.states = states;
    }

    void restore(Collection<KeyedStateHandle> handles) throws IOException {
        try (WriteBatch batch = new WriteBatch()) {
            for (KeyedStateHandle handle : handles) {
                restore(handle, batch);
            }
            flush(batch);
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("load restored state into", "key groups " + range, e);
        }
    }

    private void restore(KeyedStateHandle handle, WriteBatch batch) throws IOException, RocksDBException {
        KeyGroupRange common = handle.getKeyGroupRange().getIntersection(range);
        if (common.getNumberOfKeyGroups() == 0) {
            return;
        }
        try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(KeyedSnapshotReader.requireCanonical(handle, "The RocksDB store"))) {
            List<StateMetaInfo> metaInfos = reader.getStateMetaInfos();
            RocksDBRegisteredState[] targets = new RocksDBRegisteredState[metaInfos.size()];
            for (int i = 0; i < targets.length; i++) {
                targets[i] = register(metaInfos.get(i), handle.describe());
            }
            for (int keyGroup : common) {
                for (SnapshotSection section : reader.readKeyGroup(keyGroup)) {
                    load(section, targets[section.stateIndex()], batch);
                    if (batch.getDataSize() >= BATCH_BYTES) {
                        flush(batch);
                    }
                }
            }
        }
    }

    private RocksDBRegisteredState register(StateMetaInfo meta, String snapshot) throws IOException {
        if (!meta.keySerializer().equals(keySerializerIdentity)) {
            throw new IllegalStateException(String.format(
                    "State '%s' cannot be restored from %s: its keys were written with %s, but the operator's key "
                            + "serializer is now %s. Keep the key type of a keyed operator across restores.",
                    meta.name(), snapshot, meta.keySerializer(), keySerializerIdentity));
        }
        RocksDBRegisteredState existing = states.get(meta.name());
        if (existing != null) {
            // Several snapshots (e.g. of several old subtasks) of one state must describe it alike.
            existing.metaInfo.checkCanRestore(meta, snapshot);
            return existing;
        }
        RocksDBRegisteredState state = new RocksDBRegisteredState(
                instance.createColumnFamily(meta.name()), meta, snapshot);
        states.put(meta.name(), state);
        return state;
    }

    private void load(SnapshotSection section, RocksDBRegisteredState target, WriteBatch batch)
            throws IOException, RocksDBException {
        SnapshotEntryCursor entries = section.entries();
        byte[] array = section.array();
        int keyGroup = section.keyGroup();
        while (entries.next()) {
            switch (target.kind()) {
                case VALUE, REDUCING, AGGREGATING -> {
                    startKey(keyGroup, array, entries.keyOffset(), entries.keyLength(), 0);
                    startValue(entries.valueLength()).put(array, entries.valueOffset(), entries.valueLength());
                    put(batch, target);
                }
                case LIST -> {
                    if (entries.size() == 0) {
                        continue;
                    }
                    startKey(keyGroup, array, entries.keyOffset(), entries.keyLength(), 0);
                    int bytes = 0;
                    for (int i = 0; i < entries.size(); i++) {
                        bytes += 5 + entries.elementLength(i);
                    }
                    ByteBuffer out = startValue(bytes);
                    for (int i = 0; i < entries.size(); i++) {
                        putVarInt(out, entries.elementLength(i));
                        out.put(array, entries.elementOffset(i), entries.elementLength(i));
                    }
                    put(batch, target);
                }
                case MAP -> {
                    for (int i = 0; i < entries.size(); i++) {
                        int userKeyLength = entries.userKeyLength(i);
                        startKey(keyGroup, array, entries.keyOffset(), entries.keyLength(), userKeyLength)
                                .put(array, entries.userKeyOffset(i), userKeyLength);
                        boolean hasValue = entries.hasUserValue(i);
                        int valueLength = hasValue ? entries.userValueLength(i) : 0;
                        ByteBuffer out = startValue(6 + valueLength);
                        putVarInt(out, userKeyLength);
                        out.put((byte) (hasValue ? 1 : 0));
                        if (hasValue) {
                            out.put(array, entries.userValueOffset(i), valueLength);
                        }
                        put(batch, target);
                    }
                }
                case PRIORITY_QUEUE -> {
                    startKey(keyGroup, array, entries.keyOffset(), entries.keyLength(), 0);
                    startValue(0);
                    put(batch, target);
                }
            }
        }
    }

    /** Fills {@link #key} with the key-group prefix and the given bytes, leaving room for {@code extra} more. */
    private ByteBuffer startKey(int keyGroup, byte[] array, int offset, int length, int extra) {
        int needed = RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES + length + extra;
        if (key.capacity() < needed) {
            key = ByteBuffer.allocateDirect(Math.max(needed, key.capacity() * 2));
        }
        key.clear();
        key.putShort((short) keyGroup);
        key.put(array, offset, length);
        return key;
    }

    private ByteBuffer startValue(int maxLength) {
        if (value.capacity() < maxLength) {
            value = ByteBuffer.allocateDirect(Math.max(maxLength, value.capacity() * 2));
        }
        value.clear();
        return value;
    }

    private void put(WriteBatch batch, RocksDBRegisteredState target) throws RocksDBException {
        key.flip();
        value.flip();
        batch.put(target.columnFamily, key, value);
    }

    private void flush(WriteBatch batch) throws RocksDBException {
        if (batch.count() > 0) {
            instance.db().write(instance.writeOptions(), batch);
            batch.clear();
        }
    }

    private static void putVarInt(ByteBuffer out, int v) {
        while ((v & ~0x7F) != 0) {
            out.put((byte) ((v & 0x7F) | 0x80));
            v >>>= 7;
        }
        out.put((byte) v);
    }
}
