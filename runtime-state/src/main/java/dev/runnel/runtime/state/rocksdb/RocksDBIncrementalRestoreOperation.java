package dev.runnel.runtime.state.rocksdb;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle.HandleAndLocalPath;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32C;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.DBOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.WriteBatch;

/**
 * Restores a RocksDB backend from file-based snapshots ({@link IncrementalRemoteKeyedStateHandle}s:
 * incremental checkpoints and NATIVE savepoints) of any parallelism.
 *
 * <pre>
 *   handles intersecting the new range
 *     base = one whose range contains the new range, else the one sharing the most key groups
 *       download its files into the working directory, open the database on them directly,
 *       deleteRange the key groups outside the new range in every column family (states and timers)
 *     every other handle (rescaling: several old subtasks' key groups merge into this one)
 *       download into working-dir/restore-&lt;n&gt;, open read-only, copy the entries of the key groups
 *       both hold (iteration from the key-group prefix of the first to that of the last + 1) in write
 *       batches into the base database, close, delete the folder
 * </pre>
 *
 * Why copy rather than ingest the other handles' SST files: their files hold key groups this backend
 * does not own, and ingesting them whole would need a clip afterwards with tombstones ordered after the
 * ingested data, or new SST files written from the same iteration the copy does anyway. Copying costs
 * one pass over the owned part only, keeps merged list values as they are, and keeps the base database's
 * files (the bulk of the state) untouched except for two range tombstones.
 *
 * <p>Files handed over in place ({@link RocksDBHandoverMeta}: an in-place rescale) are not downloaded but
 * hard-linked from the local folder the old store left them in; the rest is the same path.
 *
 * <p>Every downloaded file is checked against the size and CRC-32C the meta data recorded when it was
 * uploaded, so a missing, truncated or damaged file fails the restore with a message naming it, before
 * RocksDB reads it. A mix of these handles and canonical ones is refused: they would have to be restored
 * into one database by two different paths, which no Runnel snapshot produces.
 *
 * <p>Task thread (backend creation) only. Closes every native object it opens and deletes its temporary
 * folders; on failure the caller deletes the working directory.
 */
final class RocksDBIncrementalRestoreOperation {

    private static final int BATCH_BYTES = 4 << 20;
    private static final int COPY_BUFFER_BYTES = 64 << 10;

    private final String operatorName;
    private final KeyGroupRange range;
    private final String keySerializerIdentity;
    private final List<IncrementalRemoteKeyedStateHandle> handles;

    private RocksDBIncrementalRestoreOperation(String operatorName, KeyGroupRange range, String keySerializerIdentity,
            List<IncrementalRemoteKeyedStateHandle> handles) {
        this.operatorName = operatorName;
        this.range = range;
        this.keySerializerIdentity = keySerializerIdentity;
        this.handles = handles;
    }

    /**
     * The restore of {@code restoreState}'s file-based handles that intersect {@code range}, or null when
     * {@code restoreState} holds canonical handles only (or nothing).
     *
     * @throws IllegalArgumentException if canonical and file-based handles are mixed
     */
    static RocksDBIncrementalRestoreOperation of(String operatorName, KeyGroupRange range,
            String keySerializerIdentity, Collection<KeyedStateHandle> restoreState) {
        List<IncrementalRemoteKeyedStateHandle> fileBased = new ArrayList<>();
        KeyedStateHandle canonical = null;
        for (KeyedStateHandle handle : restoreState) {
            if (handle instanceof IncrementalRemoteKeyedStateHandle files) {
                fileBased.add(files);
            } else if (handle instanceof KeyGroupsStateHandle) {
                canonical = handle;
            } else {
                throw new IllegalArgumentException(String.format("The RocksDB store of operator '%s' cannot restore "
                        + "%s: it is a %s, which it does not know.", operatorName, handle.describe(),
                        handle.getClass().getSimpleName()));
            }
        }
        if (fileBased.isEmpty()) {
            return null;
        }
        if (canonical != null) {
            throw new IllegalArgumentException(String.format("The RocksDB store of operator '%s' cannot restore %s "
                    + "together with %s: the first is RocksDB's file-based snapshot, the second a canonical one, and "
                    + "one restore takes snapshots of one kind. Restore from a single checkpoint or savepoint.",
                    operatorName, fileBased.get(0).describe(), canonical.describe()));
        }
        List<IncrementalRemoteKeyedStateHandle> intersecting = fileBased.stream()
                .filter(h -> h.getKeyGroupRange().getIntersection(range).getNumberOfKeyGroups() > 0).toList();
        return new RocksDBIncrementalRestoreOperation(operatorName, range, keySerializerIdentity, intersecting);
    }

    /**
     * Downloads the files into {@code directory}, opens the database on them and fills {@code states}
     * with its states (restored from the handles). On failure nothing stays open; the caller deletes
     * the directory (which {@link RocksDBInstance#open} does itself when it fails).
     */
    RocksDBInstance restore(RocksDBWorkingDirectory directory, RocksDBSettings settings,
            Map<String, RocksDBRegisteredState> states) throws IOException {
        if (handles.isEmpty()) {
            return RocksDBInstance.open(directory, settings);
        }
        IncrementalRemoteKeyedStateHandle base = chooseBase();
        RocksDBCheckpointMeta baseMeta = RocksDBCheckpointMeta.read(base.getMetaStateHandle(), base.describe());
        download(base, baseMeta, directory.path());
        List<String> names = baseMeta.states().stream().map(StateMetaInfo::name).toList();
        RocksDBInstance instance = RocksDBInstance.open(directory, settings, names);
        try {
            for (StateMetaInfo meta : baseMeta.states()) {
                checkKeySerializer(meta, base);
                states.put(meta.name(), new RocksDBRegisteredState(instance.existingColumnFamily(meta.name()), meta,
                        base.describe()));
            }
            clip(instance, base, states);
            writeHandedOverCacheEntries(base, instance, states);
            int temporary = 0;
            for (IncrementalRemoteKeyedStateHandle other : handles) {
                if (other != base) {
                    copyOwnedKeyGroups(other, directory.path().resolve("restore-" + (++temporary)), instance, states);
                    writeHandedOverCacheEntries(other, instance, states);
                }
            }
            return instance;
        } catch (IOException | RuntimeException e) {
            try {
                instance.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** A handle whose range contains the new one (no copy at all), else the one sharing the most key groups. */
    private IncrementalRemoteKeyedStateHandle chooseBase() {
        IncrementalRemoteKeyedStateHandle best = null;
        int bestShared = -1;
        for (IncrementalRemoteKeyedStateHandle handle : handles) {
            int shared = handle.getKeyGroupRange().getIntersection(range).getNumberOfKeyGroups();
            if (shared > bestShared) {
                best = handle;
                bestShared = shared;
            }
        }
        return best;
    }

    /** Drops the key groups of the base outside the new range, in every column family. */
    private void clip(RocksDBInstance instance, IncrementalRemoteKeyedStateHandle base,
            Map<String, RocksDBRegisteredState> states) throws IOException {
        KeyGroupRange old = base.getKeyGroupRange();
        boolean below = old.getStartKeyGroup() < range.getStartKeyGroup();
        boolean above = old.getEndKeyGroup() > range.getEndKeyGroup();
        // Keys start with the 2-byte big-endian key group (at most 0x7FFF), compared as unsigned bytes:
        // [00 00] is at or below every key and [FF FF] above every key.
        byte[] lowest = {0, 0};
        byte[] beyondAll = {(byte) 0xFF, (byte) 0xFF};
        for (RocksDBRegisteredState state : states.values()) {
            try {
                if (below) {
                    instance.db().deleteRange(state.columnFamily, lowest,
                            RocksDBKeyBuilder.keyGroupPrefix(range.getStartKeyGroup()));
                }
                if (above) {
                    instance.db().deleteRange(state.columnFamily,
                            RocksDBKeyBuilder.keyGroupPrefix(range.getEndKeyGroup() + 1), beyondAll);
                }
            } catch (RocksDBException e) {
                throw RocksDBErrors.wrap("drop the key groups outside " + range + " restored from "
                        + base.describe() + " of state", state.name(), e);
            }
        }
    }

    private void copyOwnedKeyGroups(IncrementalRemoteKeyedStateHandle source, Path folder, RocksDBInstance target,
            Map<String, RocksDBRegisteredState> states) throws IOException {
        RocksDBCheckpointMeta meta = RocksDBCheckpointMeta.read(source.getMetaStateHandle(), source.describe());
        KeyGroupRange common = source.getKeyGroupRange().getIntersection(range);
        Files.createDirectories(folder);
        try {
            download(source, meta, folder);
            List<ColumnFamilyDescriptor> descriptors = new ArrayList<>();
            descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, target.columnFamilyOptions()));
            for (StateMetaInfo state : meta.states()) {
                descriptors.add(new ColumnFamilyDescriptor(state.name().getBytes(StandardCharsets.UTF_8),
                        target.columnFamilyOptions()));
            }
            List<ColumnFamilyHandle> handles = new ArrayList<>(descriptors.size());
            try (DBOptions options = RocksDBCheckpointSnapshot.readOnlyOptions()) {
                RocksDB db;
                try {
                    db = RocksDB.openReadOnly(options, folder.toString(), descriptors, handles);
                } catch (RocksDBException e) {
                    throw RocksDBErrors.wrap("open the files of " + source.describe() + " in " + folder
                            + " for operator", operatorName, e);
                }
                try (WriteBatch batch = new WriteBatch()) {
                    for (int i = 0; i < meta.states().size(); i++) {
                        RocksDBRegisteredState into = register(meta.states().get(i), source, target, states);
                        copy(db, handles.get(i + 1), common, into, target, batch);
                    }
                    flush(target, batch);
                } catch (RocksDBException e) {
                    throw RocksDBErrors.wrap("copy the key groups " + common + " of " + source.describe()
                            + " into operator", operatorName, e);
                } finally {
                    for (ColumnFamilyHandle handle : handles) {
                        handle.close();
                    }
                    db.close();
                }
            }
        } finally {
            RocksDBWorkingDirectory.deleteTree(folder);
        }
    }

    /**
     * Writes the value-cache entries a handover carries beside its files ({@link RocksDBHandoverMeta}) for the
     * key groups of this backend over what the files hold (they are newer); nothing for other handles.
     */
    private void writeHandedOverCacheEntries(IncrementalRemoteKeyedStateHandle source, RocksDBInstance target,
            Map<String, RocksDBRegisteredState> states) throws IOException {
        if (!(source.getMetaStateHandle() instanceof RocksDBHandoverMeta handover)) {
            return;
        }
        try (WriteBatch batch = new WriteBatch()) {
            RocksDBDirtyValues.decode(handover.cacheEntries(), (stateName, key, value) -> {
                if (!range.contains(RocksDBKeyBuilder.readKeyGroup(key))) {
                    return;
                }
                RocksDBRegisteredState state = states.get(stateName);
                if (state == null) {
                    throw corrupt(source, stateName, "cached values of a state its files do not have were handed over");
                }
                try {
                    if (value == null) {
                        batch.delete(state.columnFamily, key);
                    } else {
                        batch.put(state.columnFamily, key, value);
                    }
                    if (batch.getDataSize() >= BATCH_BYTES) {
                        flush(target, batch);
                    }
                } catch (RocksDBException e) {
                    throw RocksDBErrors.wrap("write the handed-over cached values of " + source.describe()
                            + " into state", stateName, e);
                }
            });
            flush(target, batch);
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("write the handed-over cached values of " + source.describe() + " into operator",
                    operatorName, e);
        }
    }

    private static void copy(RocksDB source, ColumnFamilyHandle from, KeyGroupRange common,
            RocksDBRegisteredState into, RocksDBInstance target, WriteBatch batch) throws RocksDBException {
        try (RocksIterator iterator = source.newIterator(from)) {
            for (iterator.seek(RocksDBKeyBuilder.keyGroupPrefix(common.getStartKeyGroup())); iterator.isValid();
                    iterator.next()) {
                byte[] key = iterator.key();
                if (RocksDBKeyBuilder.readKeyGroup(key) > common.getEndKeyGroup()) {
                    break;
                }
                batch.put(into.columnFamily, key, iterator.value());
                if (batch.getDataSize() >= BATCH_BYTES) {
                    flush(target, batch);
                }
            }
            iterator.status();
        }
    }

    private static void flush(RocksDBInstance target, WriteBatch batch) throws RocksDBException {
        if (batch.count() > 0) {
            target.db().write(target.writeOptions(), batch);
            batch.clear();
        }
    }

    /** The state {@code meta} of another handle: the base's (which must agree), or a new column family. */
    private RocksDBRegisteredState register(StateMetaInfo meta, IncrementalRemoteKeyedStateHandle source,
            RocksDBInstance target, Map<String, RocksDBRegisteredState> states) throws IOException {
        checkKeySerializer(meta, source);
        RocksDBRegisteredState existing = states.get(meta.name());
        if (existing != null) {
            existing.metaInfo.checkCanRestore(meta, source.describe());
            return existing;
        }
        RocksDBRegisteredState state = new RocksDBRegisteredState(target.createColumnFamily(meta.name()), meta,
                source.describe());
        states.put(meta.name(), state);
        return state;
    }

    private void checkKeySerializer(StateMetaInfo meta, IncrementalRemoteKeyedStateHandle source) {
        if (!meta.keySerializer().equals(keySerializerIdentity)) {
            throw new IllegalStateException(String.format(
                    "State '%s' cannot be restored from %s: its keys were written with %s, but the operator's key "
                            + "serializer is now %s. Keep the key type of a keyed operator across restores.",
                    meta.name(), source.describe(), meta.keySerializer(), keySerializerIdentity));
        }
    }

    // ------------------------------------------------------------------ download

    /**
     * Copies every file of {@code handle} into {@code folder} and checks each against the meta data's
     * size and CRC-32C.
     */
    private void download(IncrementalRemoteKeyedStateHandle handle, RocksDBCheckpointMeta meta, Path folder)
            throws IOException {
        boolean handedOver = handle.getMetaStateHandle() instanceof RocksDBHandoverMeta;
        List<HandleAndLocalPath> files = new ArrayList<>(handle.getSharedState());
        files.addAll(handle.getPrivateState());
        Set<String> seen = new HashSet<>();
        for (HandleAndLocalPath file : files) {
            String name = file.localPath();
            if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals("..") || name.equals(".")) {
                throw corrupt(handle, name, "it is not a plain file name");
            }
            RocksDBCheckpointMeta.FileInfo expected = meta.files().get(name);
            if (expected == null) {
                throw corrupt(handle, name, "the snapshot's meta data does not list it");
            }
            if (!seen.add(name)) {
                throw corrupt(handle, name, "it is listed twice");
            }
            if (handedOver) {
                linkFile(handle, file, expected, folder.resolve(name));
            } else {
                downloadFile(handle, file, expected, folder.resolve(name));
            }
        }
        for (String name : meta.files().keySet()) {
            if (!seen.contains(name)) {
                throw corrupt(handle, name, "the meta data lists it, but the snapshot has no handle for it");
            }
        }
    }

    private void downloadFile(IncrementalRemoteKeyedStateHandle handle, HandleAndLocalPath file,
            RocksDBCheckpointMeta.FileInfo expected, Path target) throws IOException {
        CRC32C crc = new CRC32C();
        long size = 0;
        byte[] buffer = new byte[COPY_BUFFER_BYTES];
        try (SeekableByteChannel channel = file.handle().openChannel();
                InputStream in = Channels.newInputStream(channel);
                OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE_NEW,
                        StandardOpenOption.WRITE)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                crc.update(buffer, 0, n);
                out.write(buffer, 0, n);
                size += n;
            }
        } catch (IOException e) {
            throw new IOException(String.format("Operator '%s' cannot restore file %s of %s: reading %s failed "
                    + "(%s). The checkpoint's files are incomplete; restore from another checkpoint.", operatorName,
                    file.localPath(), handle.describe(), file.handle().describe(), e), e);
        }
        if (size != expected.size()) {
            throw corrupt(handle, file.localPath(), String.format("%s has %s bytes, but %s were uploaded",
                    file.handle().describe(), size, expected.size()));
        }
        int actual = (int) crc.getValue();
        if (actual != expected.crc()) {
            throw corrupt(handle, file.localPath(), String.format(
                    "%s has CRC-32C 0x%08X, but 0x%08X was uploaded: its bytes are damaged",
                    file.handle().describe(), actual, expected.crc()));
        }
    }

    /**
     * Takes a handed-over local file ({@link RocksDBHandoverMeta}) into the database folder without reading it:
     * an SST file is hard-linked (RocksDB never changes one, so the old and the new stores may share its bytes;
     * either deleting its own link leaves the other's), and copied only where no link can be made (another file
     * system); the other files (MANIFEST, CURRENT, OPTIONS: small, and RocksDB may append to a MANIFEST) are
     * copied. The size is checked; the bytes never left the local disk, so no checksum is computed.
     */
    private void linkFile(IncrementalRemoteKeyedStateHandle handle, HandleAndLocalPath file,
            RocksDBCheckpointMeta.FileInfo expected, Path target) throws IOException {
        if (!(file.handle() instanceof FileStateHandle local)) {
            throw corrupt(handle, file.localPath(), file.handle().describe() + " is not a local file");
        }
        Path source = local.getFilePath();
        try {
            if (file.localPath().endsWith(".sst")) {
                try {
                    Files.createLink(target, source);
                } catch (IOException | UnsupportedOperationException e) {
                    Files.copy(source, target);
                }
            } else {
                Files.copy(source, target);
            }
        } catch (IOException e) {
            throw new IOException(String.format("Operator '%s' cannot take over file %s of %s from %s (%s). The "
                    + "handed-over files are gone; restore from a checkpoint.", operatorName, file.localPath(),
                    handle.describe(), source, e), e);
        }
        long size = Files.size(target);
        if (size != expected.size()) {
            throw corrupt(handle, file.localPath(), String.format("%s has %s bytes, but had %s when handed over",
                    source, size, expected.size()));
        }
    }

    private CorruptDataException corrupt(IncrementalRemoteKeyedStateHandle handle, String file, String what) {
        return new CorruptDataException(String.format("Operator '%s' cannot restore file %s of %s: %s. Restore "
                + "from another checkpoint.", operatorName, file, handle.describe(), what));
    }
}
