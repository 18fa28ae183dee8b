package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.snapshot.format.StateKind;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import dev.runnel.runtime.state.ttl.TtlSnapshotFilter;
import org.rocksdb.ColumnFamilyHandle;

/**
 * One column family of a backend and what is known about it: the state's snapshot metadata (name,
 * kind, serializer identities) and the state object over it, once the operator asked for it (what it
 * was registered with is in the backend's {@link dev.runnel.runtime.state.backend.StateRegistry}). A
 * restored state that the operator has not asked for yet has no object, but its bytes are still
 * snapshotted with the metadata they were restored with.
 *
 * <p>Task thread only. The column family handle is owned by the backend's {@link RocksDBInstance}.
 */
final class RocksDBRegisteredState {

    final ColumnFamilyHandle columnFamily;
    StateMetaInfo metaInfo;
    /** Where the restored bytes came from, for messages; null for a state created in this run. */
    String restoredFrom;
    /**
     * The RocksDB state the operator uses (itself, or what a TTL decorator wraps); null for queues and
     * until the state is registered.
     */
    AbstractRocksDBState<?, ?, ?> rawState;
    /** Drops expired entries from snapshots; null without TTL (or before registration). */
    TtlSnapshotFilter ttlFilter;

    RocksDBRegisteredState(ColumnFamilyHandle columnFamily, StateMetaInfo metaInfo, String restoredFrom) {
        this.columnFamily = columnFamily;
        this.metaInfo = metaInfo;
        this.restoredFrom = restoredFrom;
    }

    String name() {
        return metaInfo.name();
    }

    StateKind kind() {
        return metaInfo.kind();
    }

    @Override
    public String toString() {
        return kind() + " state '" + name() + "'";
    }
}
