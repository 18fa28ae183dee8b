package dev.runnel.runtime.state.rocksdb;

import java.util.HashMap;
import java.util.Map;
import org.rocksdb.Cache;
import org.rocksdb.LRUCache;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBufferManager;

/**
 * The block cache and write-buffer manager that all RocksDB instances of this process share, so
 * that RocksDB's memory is bounded per process rather than per operator and state.
 *
 * <p>One pair exists per distinct (size, ratio); each backend {@link #acquire acquires} a
 * {@link Lease} when it opens and closes the lease when it closes. The native objects are freed when
 * the last lease is closed; a later acquire creates new ones. Thread-safe: backends of different
 * tasks open and close concurrently.
 */
public final class RocksDBSharedMemory {

    /** What a pair is shared by. */
    private record Spec(long managedBytes, double writeBufferRatio) {}

    private static final class Entry {
        final Cache cache;
        final WriteBufferManager writeBufferManager;
        int references;

        Entry(Cache cache, WriteBufferManager writeBufferManager) {
            this.cache = cache;
            this.writeBufferManager = writeBufferManager;
        }
    }

    private static final Map<Spec, Entry> SHARED = new HashMap<>();

    static {
        RocksDB.loadLibrary();
    }

    private RocksDBSharedMemory() {}

    /**
     * A reference to the shared cache and write-buffer manager for {@code managedBytes} and
     * {@code writeBufferRatio}; the caller must {@link Lease#close() close} it exactly once, after
     * closing every RocksDB object that uses them.
     */
    public static Lease acquire(long managedBytes, double writeBufferRatio) {
        if (managedBytes <= 0) {
            throw new IllegalArgumentException(String.format(
                    "RocksDB managed memory must be positive, was %s bytes; set state.backend.rocksdb.memory.managed-size",
                    managedBytes));
        }
        Spec spec = new Spec(managedBytes, writeBufferRatio);
        synchronized (SHARED) {
            Entry entry = SHARED.get(spec);
            if (entry == null) {
                // The cache holds data blocks, index/filter blocks (high priority, 10%) and the
                // memtable reservations of the write-buffer manager, so its capacity is the whole budget.
                Cache cache = new LRUCache(managedBytes, -1, false, 0.1);
                // allowStall=false: a full budget makes RocksDB flush the largest memtable rather than
                // block the task thread.
                WriteBufferManager manager = new WriteBufferManager(
                        (long) (managedBytes * writeBufferRatio), cache, false);
                entry = new Entry(cache, manager);
                SHARED.put(spec, entry);
            }
            entry.references++;
            return new Lease(spec, entry);
        }
    }

    /** The number of live shared pairs; for tests. */
    static int livePairs() {
        synchronized (SHARED) {
            return SHARED.size();
        }
    }

    private static void release(Spec spec, Entry entry) {
        synchronized (SHARED) {
            entry.references--;
            if (entry.references == 0) {
                SHARED.remove(spec);
                // The manager holds a reference to the cache: close it first.
                entry.writeBufferManager.close();
                entry.cache.close();
            }
        }
    }

    /**
     * One backend's reference to the shared pair. Not thread-safe; closing twice is harmless.
     */
    public static final class Lease implements AutoCloseable {
        private final Spec spec;
        private final Entry entry;
        private boolean closed;

        private Lease(Spec spec, Entry entry) {
            this.spec = spec;
            this.entry = entry;
        }

        public Cache cache() {
            return entry.cache;
        }

        public WriteBufferManager writeBufferManager() {
            return entry.writeBufferManager;
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                release(spec, entry);
            }
        }
    }
}
