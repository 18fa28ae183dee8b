package dev.runnel.contrib.streaming.state;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;

/**
 * The configuration options of the embedded RocksDB state store ({@code state.backend: rocksdb}).
 *
 * <p>Memory model: every RocksDB instance of one process (TaskManager) that uses the same
 * {@link #MANAGED_MEMORY_SIZE} and {@link #WRITE_BUFFER_RATIO} shares one block cache, and the
 * memtables of all of them are charged to that cache through one write-buffer manager. So the
 * process spends about {@code managed-size} on RocksDB in total, however many keyed operators and
 * states it runs. The defaults suit the reference machine (2 cores, 24 GiB) with room to spare.
 *
 * <p>Constants only; thread-safe.
 */
public final class RocksDBOptions {

    private RocksDBOptions() {}

    /** Where working directories go; empty means the task's local directories. */
    public static final ConfigOption<String> LOCAL_DIRECTORIES = ConfigOption.stringOption(
            "state.backend.rocksdb.localdir", "",
            "Directory in which each RocksDB instance gets its working directory "
                    + "(rocksdb-<operator>-<subtask>-<random>). Empty: the task's local directories, "
                    + "or java.io.tmpdir when it has none. Use a local SSD; the directory is deleted on close.");

    /** Block cache plus memtables, shared by all instances of the process. */
    public static final ConfigOption<Long> MANAGED_MEMORY_SIZE = ConfigOption.memoryOption(
            "state.backend.rocksdb.memory.managed-size", 256L << 20,
            "Memory for RocksDB per process: one block cache (LRU) shared by every RocksDB instance of "
                    + "the process, with all memtables charged to it. E.g. 256mb, 1gb.");

    /** Share of {@link #MANAGED_MEMORY_SIZE} that memtables may take. */
    public static final ConfigOption<String> WRITE_BUFFER_RATIO = ConfigOption.stringOption(
            "state.backend.rocksdb.memory.write-buffer-ratio", "0.5",
            "Fraction (0 < r < 1) of the managed memory that memtables (write buffers) of all instances "
                    + "may use before RocksDB flushes them; the rest is for cached data, index and filter blocks.");

    /** Size of one memtable of one column family. */
    public static final ConfigOption<Long> WRITE_BUFFER_SIZE = ConfigOption.memoryOption(
            "state.backend.rocksdb.writebuffer.size", 64L << 20,
            "Size of one memtable (write buffer) of one state's column family before it is flushed to disk. "
                    + "The shared limit of write-buffer-ratio applies on top.");

    /** Memtables per column family. */
    public static final ConfigOption<Integer> MAX_WRITE_BUFFER_NUMBER = ConfigOption.intOption(
            "state.backend.rocksdb.writebuffer.count", 2,
            "Maximum number of memtables per column family, in memory at once (one active, the rest "
                    + "waiting to be flushed).");

    /** Background flush and compaction threads per instance. */
    public static final ConfigOption<Integer> BACKGROUND_THREADS = ConfigOption.intOption(
            "state.backend.rocksdb.thread.num", 2,
            "Maximum number of concurrent background flush and compaction jobs per RocksDB instance.");

    /** Block size of SST files. */
    public static final ConfigOption<Long> BLOCK_SIZE = ConfigOption.memoryOption(
            "state.backend.rocksdb.block.blocksize", 4L << 10,
            "Approximate size of user data per SST block (the unit of reads and caching), e.g. 4kb or 16kb.");

    /** Bloom filters on SST files. */
    public static final ConfigOption<Boolean> USE_BLOOM_FILTER = ConfigOption.booleanOption(
            "state.backend.rocksdb.use-bloom-filter", true,
            "Whether SST files carry a bloom filter (10 bits per key), so point reads of absent keys "
                    + "rarely touch data blocks. Costs about 1.25 bytes per key of cache.");

    /** Capacity of the in-memory cache of each timer queue's key group. */
    public static final ConfigOption<Integer> TIMER_CACHE_SIZE = ConfigOption.intOption(
            "state.backend.rocksdb.timer-service.cache-size", 128,
            "How many of the smallest timers of each key group a RocksDB timer queue keeps in memory; "
                    + "the rest are read back from RocksDB in batches of this size.");

    /** Entries of the write-back cache of single-value states, per backend. */
    public static final ConfigOption<Integer> VALUE_CACHE_SIZE = ConfigOption.intOption(
            "state.backend.rocksdb.value-cache.size", 65536,
            "Entries of the in-heap write-back cache that each keyed operator subtask keeps in front of RocksDB "
                    + "for value, reducing and aggregating state (serialized values of up to "
                    + "256 bytes; larger ones bypass it). Hot keys are then read and updated without calling "
                    + "into RocksDB; changes reach RocksDB on eviction and before every snapshot. About 80 bytes "
                    + "per entry plus the value; 0 turns the cache off.");

    /**
     * The write-buffer ratio of {@code configuration}, validated.
     *
     * @throws IllegalArgumentException if it is not a number strictly between 0 and 1
     */
    public static double writeBufferRatio(Configuration configuration) {
        String raw = configuration.get(WRITE_BUFFER_RATIO).trim();
        double ratio;
        try {
            ratio = Double.parseDouble(raw);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(String.format(
                    "Invalid value '%s' for configuration option '%s': expected a number between 0 and 1, e.g. 0.5",
                    raw, WRITE_BUFFER_RATIO.key()), e);
        }
        if (!(ratio > 0 && ratio < 1)) {
            throw new IllegalArgumentException(String.format(
                    "Invalid value '%s' for configuration option '%s': it must lie strictly between 0 and 1",
                    raw, WRITE_BUFFER_RATIO.key()));
        }
        return ratio;
    }
}
