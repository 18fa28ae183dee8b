package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.backend.AbstractKeyedStateSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;

/**
 * A RocksDB backend's state at one moment, for a database whose memtables update in place (which
 * RocksDB takes no native snapshot of): a RocksDB checkpoint, that is the database's files
 * hard-linked into a folder of its own in the working directory after every memtable was flushed
 * (taken after the pending timer writes went into RocksDB), plus, as for a native snapshot, a copy
 * of the value cache's dirty entries ({@link RocksDBDirtyValues}) and the states as they were
 * registered then. Later writes and compactions of the live database do not touch the linked files.
 *
 * <pre>
 *   rocksdb-&lt;operator&gt;-&lt;subtask&gt;-&lt;random&gt;/           the live database
 *     snapshot-checkpoint-&lt;n&gt;/                         this snapshot, until written or released
 * </pre>
 *
 * <p>The write opens the checkpoint read-only with the live database's column family options (so
 * list merges resolve the same way), reads it with {@link RocksDBSnapshotWriter} exactly as a native
 * snapshot is read, so the bytes are the same, closes it and deletes the folder; a release deletes
 * the folder too.
 *
 * <p>Written by any one thread. The column family options belong to the backend, whose close
 * releases pending snapshots and waits for a running write to stop before it frees them.
 */
final class RocksDBCheckpointSnapshot extends AbstractKeyedStateSnapshot {

    private final Path checkpoint;
    private final ColumnFamilyOptions columnFamilyOptions;
    private final RocksDBDirtyValues dirtyValues;
    private final List<RocksDBSnapshotWriter.SnapshotState> states;
    /** The column family name of each state, in {@link #states}' order. */
    private final List<byte[]> columnFamilyNames;
    private final long ttlNow;

    RocksDBCheckpointSnapshot(KeyGroupRange range, String description, Path checkpoint,
            ColumnFamilyOptions columnFamilyOptions, RocksDBDirtyValues dirtyValues,
            List<RocksDBSnapshotWriter.SnapshotState> states, List<byte[]> columnFamilyNames, long ttlNow) {
        super(range, description);
        this.checkpoint = checkpoint;
        this.columnFamilyOptions = columnFamilyOptions;
        this.dirtyValues = dirtyValues;
        this.states = states;
        this.columnFamilyNames = columnFamilyNames;
        this.ttlNow = ttlNow;
    }

    /** The checkpoint's folder; for tests. */
    Path checkpointPath() {
        return checkpoint;
    }

    @Override
    protected KeyGroupRangeOffsets write(OutputStream out) throws IOException {
        return writeCanonical(checkpoint, columnFamilyOptions, columnFamilyNames, dirtyValues, states, ttlNow,
                getKeyGroupRange(), toString(), this::checkNotReleased, out);
    }

    /**
     * Writes the canonical format of {@code range} from the RocksDB checkpoint in folder {@code checkpoint}:
     * opens it read-only with the live database's column family options (so list merges resolve the same
     * way), reads it with {@link RocksDBSnapshotWriter} exactly as a native snapshot is read, and closes it.
     * Shared with {@link RocksDBIncrementalSnapshot}, whose checkpoint can be written this way too.
     */
    static KeyGroupRangeOffsets writeCanonical(Path checkpoint, ColumnFamilyOptions columnFamilyOptions,
            List<byte[]> columnFamilyNames, RocksDBDirtyValues dirtyValues,
            List<RocksDBSnapshotWriter.SnapshotState> states, long ttlNow, KeyGroupRange range, String description,
            RocksDBSnapshotWriter.ReleaseCheck releaseCheck, OutputStream out) throws IOException {
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>(columnFamilyNames.size() + 1);
        // Read-only, RocksDB opens any subset of the column families that includes the default one.
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, columnFamilyOptions));
        for (byte[] name : columnFamilyNames) {
            descriptors.add(new ColumnFamilyDescriptor(name, columnFamilyOptions));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>(descriptors.size());
        try (DBOptions options = readOnlyOptions()) {
            RocksDB db;
            try {
                db = RocksDB.openReadOnly(options, checkpoint.toString(), descriptors, handles);
            } catch (RocksDBException e) {
                throw RocksDBErrors.wrap("open the checkpoint " + checkpoint + " of", description, e);
            }
            try {
                return new RocksDBSnapshotWriter(db, null, handles.subList(1, handles.size()), dirtyValues, states,
                        ttlNow, releaseCheck).write(range, out);
            } finally {
                for (ColumnFamilyHandle handle : handles) {
                    handle.close();
                }
                db.close();
            }
        }
    }

    /** Options for opening a checkpoint read-only: all files open, a minimal info log. The caller closes them. */
    static DBOptions readOnlyOptions() {
        return new DBOptions()
                .setMaxOpenFiles(-1)
                .setInfoLogLevel(InfoLogLevel.HEADER_LEVEL)
                .setKeepLogFileNum(1)
                .setStatsDumpPeriodSec(0);
    }

    /**
     * Deletes the checkpoint's folder. If that fails the backend's close removes it with the working
     * directory; nothing in it is used again.
     */
    @Override
    protected void free() {
        try {
            RocksDBWorkingDirectory.deleteTree(checkpoint);
        } catch (IOException ignored) {
            // see above: the working directory's deletion on close takes it along
        }
    }

    static List<byte[]> namesOf(List<RocksDBSnapshotWriter.SnapshotState> states) {
        List<byte[]> names = new ArrayList<>(states.size());
        for (RocksDBSnapshotWriter.SnapshotState state : states) {
            names.add(state.name().getBytes(StandardCharsets.UTF_8));
        }
        return names;
    }
}
