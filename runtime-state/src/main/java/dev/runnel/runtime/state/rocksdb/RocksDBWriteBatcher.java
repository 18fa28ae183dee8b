package dev.runnel.runtime.state.rocksdb;

import java.util.Objects;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * Gathers small puts and deletes (of any column family of one database) into a {@link WriteBatch}
 * and writes it as one when it holds {@code maxEntries} writes, or when {@link #flush()} is called.
 * One batched write costs RocksDB a fraction of the same writes made singly, which is most of the
 * cost of timers whose elements are all written through.
 *
 * <p>Writes held here are not visible to reads of the database: every reader of the affected
 * column families (iterators, snapshots, counts) calls {@link #flush()} first.
 *
 * <p>Task thread only. Owns one native {@link WriteBatch}, freed by {@link #close()}, which discards
 * writes not yet flushed (it is called when the whole database is being thrown away).
 */
final class RocksDBWriteBatcher implements AutoCloseable {

    /** Large enough to amortize the write path, small enough that a batch stays in cache. */
    static final int DEFAULT_MAX_ENTRIES = 512;

    private final RocksDB db;
    private final WriteOptions writeOptions;
    private final int maxEntries;
    private final WriteBatch batch = new WriteBatch();
    private int entries;

    RocksDBWriteBatcher(RocksDB db, WriteOptions writeOptions, int maxEntries) {
        if (maxEntries <= 0) {
            throw new IllegalArgumentException("a write batch needs room for at least one write, got " + maxEntries);
        }
        this.db = Objects.requireNonNull(db, "db");
        this.writeOptions = Objects.requireNonNull(writeOptions, "writeOptions");
        this.maxEntries = maxEntries;
    }

    void put(ColumnFamilyHandle columnFamily, byte[] key, byte[] value) throws RocksDBException {
        batch.put(columnFamily, key, value);
        added();
    }

    void delete(ColumnFamilyHandle columnFamily, byte[] key) throws RocksDBException {
        batch.delete(columnFamily, key);
        added();
    }

    /** Writes everything gathered so far to the database. */
    void flush() throws RocksDBException {
        if (entries > 0) {
            db.write(writeOptions, batch);
            batch.clear();
            entries = 0;
        }
    }

    @Override
    public void close() {
        batch.close();
        entries = 0;
    }

    private void added() throws RocksDBException {
        if (++entries >= maxEntries) {
            flush();
        }
    }
}
