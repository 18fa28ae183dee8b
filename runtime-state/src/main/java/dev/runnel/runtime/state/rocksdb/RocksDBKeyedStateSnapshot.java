package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.backend.AbstractKeyedStateSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.Snapshot;

/**
 * A RocksDB backend's state at one moment, written out later: a native RocksDB {@link Snapshot}
 * (taken after the pending timer writes went into RocksDB), a copy of the value cache's dirty
 * entries, which stand in for RocksDB's values of their keys ({@link RocksDBDirtyValues}), and the
 * states as they were registered then. RocksDB keeps every key's value as of the snapshot, however
 * the task changes it meanwhile, until the snapshot is released.
 *
 * <p>Taken when memtables do not update in place; {@link RocksDBCheckpointSnapshot} is the other way.
 *
 * <p>Written by any one thread through {@link RocksDBSnapshotWriter}; RocksDB reads are thread-safe
 * against the task thread's writes. Freeing releases the native snapshot. The backend's close
 * releases pending snapshots and waits for a running write to stop before it closes the database.
 */
final class RocksDBKeyedStateSnapshot extends AbstractKeyedStateSnapshot {

    private final RocksDB db;
    private final Snapshot snapshot;
    private final RocksDBDirtyValues dirtyValues;
    private final List<RocksDBSnapshotWriter.SnapshotState> states;
    private final long ttlNow;

    RocksDBKeyedStateSnapshot(KeyGroupRange range, String description, RocksDB db, Snapshot snapshot,
            RocksDBDirtyValues dirtyValues, List<RocksDBSnapshotWriter.SnapshotState> states, long ttlNow) {
        super(range, description);
        this.db = db;
        this.snapshot = snapshot;
        this.dirtyValues = dirtyValues;
        this.states = states;
        this.ttlNow = ttlNow;
    }

    @Override
    protected KeyGroupRangeOffsets write(OutputStream out) throws IOException {
        List<ColumnFamilyHandle> sources = states.stream().map(RocksDBSnapshotWriter.SnapshotState::columnFamily).toList();
        return new RocksDBSnapshotWriter(db, snapshot, sources, dirtyValues, states, ttlNow, this::checkNotReleased)
                .write(getKeyGroupRange(), out);
    }

    @Override
    protected void free() {
        db.releaseSnapshot(snapshot);
    }
}
