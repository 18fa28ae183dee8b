package dev.runnel.runtime.state.rocksdb;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.rocksdb.BlockBasedTableConfig;
import org.rocksdb.BloomFilter;
import org.rocksdb.Checkpoint;
import org.rocksdb.ColumnFamilyDescriptor;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ColumnFamilyOptions;
import org.rocksdb.CompactionStyle;
import org.rocksdb.DBOptions;
import org.rocksdb.InfoLogLevel;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.StringAppendOperator;
import org.rocksdb.WriteOptions;

/**
 * One open RocksDB database in its working directory, with every native object it needs: options,
 * column family handles, read and write options. It owns all of them and frees them in
 * {@link #close()}, in the order RocksDB requires (handles before the database, the database before
 * its options), then deletes the working directory and returns its lease on the shared memory.
 *
 * <p>Writes skip the write-ahead log: the state is made durable by snapshots, as in Flink, and a
 * lost working directory is rebuilt from the last snapshot.
 *
 * <p>Task thread only. After {@link #close()} every method fails; calling close again is harmless.
 */
public final class RocksDBInstance implements AutoCloseable {

    /**
     * The merge operator of list state. An empty delimiter makes a merge a plain concatenation, which
     * is right because every list element is stored with its own length prefix.
     */
    private static final String LIST_APPEND_DELIMITER = "";

    private final RocksDBWorkingDirectory directory;
    private final RocksDBSharedMemory.Lease memory;
    /** Everything to close after the database, in reverse order of creation. */
    private final Deque<AutoCloseable> ownedOptions = new ArrayDeque<>();
    private final List<ColumnFamilyHandle> columnFamilies = new ArrayList<>();
    private final ColumnFamilyOptions columnFamilyOptions;
    private final ReadOptions readOptions;
    private final WriteOptions writeOptions;
    private final RocksDB db;
    private final ColumnFamilyHandle defaultColumnFamily;
    private final boolean inplaceUpdates;
    private boolean closed;

    /** The column families the database already had when it was opened (a restore's), by name. */
    private final Map<String, ColumnFamilyHandle> existingColumnFamilies = new LinkedHashMap<>();

    private RocksDBInstance(RocksDBWorkingDirectory directory, RocksDBSharedMemory.Lease memory,
            RocksDBSettings settings, List<String> existing) throws IOException {
        this.directory = directory;
        this.memory = memory;
        this.inplaceUpdates = settings.inplaceUpdateSupport();
        DBOptions dbOptions = own(new DBOptions()
                .setCreateIfMissing(true)
                .setCreateMissingColumnFamilies(true)
                .setWriteBufferManager(memory.writeBufferManager())
                .setMaxBackgroundJobs(settings.backgroundThreads())
                .setUseFsync(false)
                .setMaxOpenFiles(-1)
                // The log only helps when debugging RocksDB itself; keep it small.
                .setInfoLogLevel(InfoLogLevel.HEADER_LEVEL)
                .setKeepLogFileNum(1)
                .setStatsDumpPeriodSec(0)
                // One thread writes: concurrent memtable writes would only add synchronization.
                .setAllowConcurrentMemtableWrite(false)
                // Nothing survives close: the directory is deleted, so flushing on shutdown is waste.
                .setAvoidFlushDuringShutdown(true));
        this.columnFamilyOptions = own(newColumnFamilyOptions(settings));
        this.readOptions = own(new ReadOptions());
        this.writeOptions = own(new WriteOptions().setDisableWAL(true).setSync(false));
        List<ColumnFamilyDescriptor> descriptors = new ArrayList<>(1 + existing.size());
        descriptors.add(new ColumnFamilyDescriptor(RocksDB.DEFAULT_COLUMN_FAMILY, columnFamilyOptions));
        for (String name : existing) {
            descriptors.add(new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), columnFamilyOptions));
        }
        List<ColumnFamilyHandle> handles = new ArrayList<>(descriptors.size());
        try {
            this.db = RocksDB.open(dbOptions, directory.path().toString(), descriptors, handles);
        } catch (RocksDBException e) {
            IOException failure = RocksDBErrors.wrap("open the database in " + directory.path(), null, e);
            closeOwnedOptions(failure);
            throw failure;
        }
        this.defaultColumnFamily = handles.get(0);
        for (int i = 0; i < existing.size(); i++) {
            ColumnFamilyHandle handle = handles.get(i + 1);
            columnFamilies.add(handle);
            existingColumnFamilies.put(existing.get(i), handle);
        }
    }

    /**
     * Opens a new database in {@code directory}. On failure everything created so far is freed, the
     * directory deleted and the lease closed.
     */
    public static RocksDBInstance open(RocksDBWorkingDirectory directory, RocksDBSettings settings)
            throws IOException {
        return open(directory, settings, List.of());
    }

    /**
     * Opens the database whose files are already in {@code directory} (a restored checkpoint's), with
     * exactly the column families {@code existingColumnFamilies} besides the default one: RocksDB refuses
     * to open a database without naming all of them. Their handles are {@link #existingColumnFamily}.
     * On failure everything created so far is freed, the directory deleted and the lease closed.
     */
    static RocksDBInstance open(RocksDBWorkingDirectory directory, RocksDBSettings settings,
            List<String> existingColumnFamilies) throws IOException {
        RocksDBSharedMemory.Lease memory = RocksDBSharedMemory.acquire(
                settings.managedMemoryBytes(), settings.writeBufferRatio());
        try {
            return new RocksDBInstance(directory, memory, settings, List.copyOf(existingColumnFamilies));
        } catch (IOException | RuntimeException e) {
            memory.close();
            try {
                directory.delete();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    private ColumnFamilyOptions newColumnFamilyOptions(RocksDBSettings settings) {
        BlockBasedTableConfig table = new BlockBasedTableConfig()
                .setBlockCache(memory.cache())
                .setBlockSize(settings.blockSize())
                // Index and filter blocks live in the shared cache too, so memory stays bounded,
                // but with high priority and pinned for L0, so point reads rarely miss them.
                .setCacheIndexAndFilterBlocks(true)
                .setCacheIndexAndFilterBlocksWithHighPriority(true)
                .setPinL0FilterAndIndexBlocksInCache(true);
        if (settings.useBloomFilter()) {
            table.setFilterPolicy(own(new BloomFilter(10, false)));
        }
        StringAppendOperator append = own(new StringAppendOperator(LIST_APPEND_DELIMITER));
        // In-place memtable updates (inplace_update_support): read-modify-write of a hot key (counts,
        // sums, accumulators) overwrites its memtable entry when the new value is not larger, instead
        // of stacking a new version per write, so memtables hold each hot key once and flushes are rare
        // (get+put of 50k hot keys 2x faster with the value cache off). But RocksDB then refuses native
        // snapshots (getSnapshot() returns null), and snapshots take a checkpoint instead, which
        // flushes every memtable in the synchronous phase. RocksDBOptions.INPLACE_UPDATE_SUPPORT decides.
        return new ColumnFamilyOptions()
                .setMergeOperator(append)
                .setTableFormatConfig(table)
                .setCompactionStyle(CompactionStyle.LEVEL)
                .setLevelCompactionDynamicLevelBytes(true)
                .setWriteBufferSize(settings.writeBufferSize())
                .setMaxWriteBufferNumber(settings.maxWriteBufferNumber())
                .setTargetFileSizeBase(64L << 20)
                .setMaxBytesForLevelBase(256L << 20)
                .setDisableAutoCompactions(false)
                .setInplaceUpdateSupport(settings.inplaceUpdateSupport());
    }

    private <T extends AutoCloseable> T own(T nativeObject) {
        ownedOptions.push(nativeObject);
        return nativeObject;
    }

    /** Creates a column family named {@code name}; it is closed with this instance. */
    public ColumnFamilyHandle createColumnFamily(String name) throws IOException {
        checkOpen();
        try {
            ColumnFamilyHandle handle = db.createColumnFamily(
                    new ColumnFamilyDescriptor(name.getBytes(StandardCharsets.UTF_8), columnFamilyOptions));
            columnFamilies.add(handle);
            return handle;
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("create the column family of state", name, e);
        }
    }

    /**
     * Flushes every memtable and hard-links the database's files into {@code target}, which must not
     * exist yet (its parent must): a consistent copy of the database that later writes do not change.
     * This is RocksDB's checkpoint; the flush is most of what it costs. On failure nothing is left at
     * {@code target}.
     */
    void createCheckpoint(Path target) throws IOException {
        checkOpen();
        try (Checkpoint checkpoint = Checkpoint.create(db)) {
            checkpoint.createCheckpoint(target.toString());
        } catch (RocksDBException e) {
            IOException failure = RocksDBErrors.wrap("create a checkpoint in " + target + " of the database in "
                    + directory.path(), null, e);
            try {
                RocksDBWorkingDirectory.deleteTree(target);
            } catch (IOException suppressed) {
                failure.addSuppressed(suppressed);
            }
            throw failure;
        }
    }

    /** The handle of column family {@code name} the database had when opened, or null. */
    ColumnFamilyHandle existingColumnFamily(String name) {
        return existingColumnFamilies.get(name);
    }

    /** Whether memtables update in place, so that RocksDB takes no native snapshot of this database. */
    boolean inplaceUpdates() {
        return inplaceUpdates;
    }

    /**
     * The options of every column family (merge operator, table format, shared cache); for opening a
     * checkpoint of this database. Freed by {@link #close()}; shared, do not change.
     */
    ColumnFamilyOptions columnFamilyOptions() {
        return columnFamilyOptions;
    }

    public RocksDB db() {
        checkOpen();
        return db;
    }

    /** Options for point reads; shared, do not change. */
    public ReadOptions readOptions() {
        return readOptions;
    }

    /** Options for writes: no write-ahead log. Shared, do not change. */
    public WriteOptions writeOptions() {
        return writeOptions;
    }

    public RocksDBWorkingDirectory directory() {
        return directory;
    }

    public boolean isClosed() {
        return closed;
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("The RocksDB instance in " + directory.path()
                    + " is closed: the keyed state backend was closed, so its state can no longer be used.");
        }
    }

    /**
     * Frees every native object, deletes the working directory and releases the shared memory. The
     * caller must have closed its iterators, write batches and snapshots first.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        IOException failure = null;
        for (ColumnFamilyHandle handle : columnFamilies) {
            handle.close();
        }
        columnFamilies.clear();
        defaultColumnFamily.close();
        try {
            // closeE reports a failed close instead of swallowing it.
            db.closeE();
        } catch (RocksDBException e) {
            failure = RocksDBErrors.wrap("close the database in " + directory.path(), null, e);
        }
        failure = closeOwnedOptions(failure);
        memory.close();
        try {
            directory.delete();
        } catch (IOException e) {
            failure = addFailure(failure, new IOException(
                    "Could not delete the RocksDB working directory " + directory.path() + ": " + e.getMessage(), e));
        }
        if (failure != null) {
            throw failure;
        }
    }

    private IOException closeOwnedOptions(IOException failure) {
        while (!ownedOptions.isEmpty()) {
            AutoCloseable owned = ownedOptions.pop();
            try {
                owned.close();
            } catch (Exception e) {
                failure = addFailure(failure, e);
            }
        }
        return failure;
    }

    private static IOException addFailure(IOException first, Exception next) {
        if (first == null) {
            return next instanceof IOException io ? io : new IOException(next.getMessage(), next);
        }
        first.addSuppressed(next);
        return first;
    }
}
