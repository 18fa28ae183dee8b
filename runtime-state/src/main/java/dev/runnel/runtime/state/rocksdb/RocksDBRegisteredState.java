package dev.runnel.runtime.state.rocksdb;

import org.rocksdb.ColumnFamilyHandle;

/**
 * One column family of a backend and what is known about it: its name and kind, the serializers its
 * bytes were written with (as identity strings, for the compatibility check on restore), and the
 * object the operator uses, once it asked for it. A restored state that the operator has not asked
 * for yet has no object, but its bytes are still snapshotted.
 *
 * <p>Task thread only. The column family handle is owned by the backend's {@link RocksDBInstance}.
 */
final class RocksDBRegisteredState {

    final String name;
    final RocksDBStateKind kind;
    final ColumnFamilyHandle columnFamily;
    String keySerializerId;
    String namespaceSerializerId;
    String valueSerializerId;
    /** The state or queue object; null until the operator registers it. */
    Object handle;

    RocksDBRegisteredState(String name, RocksDBStateKind kind, ColumnFamilyHandle columnFamily,
            String keySerializerId, String namespaceSerializerId, String valueSerializerId) {
        this.name = name;
        this.kind = kind;
        this.columnFamily = columnFamily;
        this.keySerializerId = keySerializerId;
        this.namespaceSerializerId = namespaceSerializerId;
        this.valueSerializerId = valueSerializerId;
    }

    @Override
    public String toString() {
        return kind + " state '" + name + "'";
    }
}
