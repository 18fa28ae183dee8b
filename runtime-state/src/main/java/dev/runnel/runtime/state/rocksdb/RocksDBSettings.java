package dev.runnel.runtime.state.rocksdb;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.RocksDBOptions;

/**
 * The RocksDB options of one backend, read and validated once from the configuration.
 *
 * @param localDirectory the configured base directory, or empty for the task's local directories
 * @param managedMemoryBytes the per-process memory budget (see {@link RocksDBOptions#MANAGED_MEMORY_SIZE})
 * @param writeBufferRatio share of the budget for memtables
 * @param writeBufferSize one memtable's size
 * @param maxWriteBufferNumber memtables per column family
 * @param backgroundThreads flush and compaction jobs
 * @param blockSize SST block size
 * @param useBloomFilter whether SST files get bloom filters
 * @param timerCacheSize per-key-group capacity of timer queue caches
 * @param valueCacheSize entries of the write-back value cache; 0 for none
 * @param inplaceUpdateSupport whether memtables update in place (resolved from
 *     {@link RocksDBOptions#INPLACE_UPDATE_SUPPORT}: {@code auto} is decided here, once); then
 *     snapshots take a checkpoint instead of a native RocksDB snapshot
 * @param incrementalCheckpoints whether checkpoints upload only the SST files earlier completed
 *     checkpoints have not ({@link #INCREMENTAL_CHECKPOINTS})
 */
public record RocksDBSettings(
        String localDirectory,
        long managedMemoryBytes,
        double writeBufferRatio,
        long writeBufferSize,
        int maxWriteBufferNumber,
        int backgroundThreads,
        long blockSize,
        boolean useBloomFilter,
        int timerCacheSize,
        int valueCacheSize,
        boolean inplaceUpdateSupport,
        boolean incrementalCheckpoints) {

    /**
     * Incremental checkpoints: {@code state.backend.incremental}. Kept here with the same key until the
     * job-wide {@code CheckpointingOptions.INCREMENTAL_CHECKPOINTS} exists; both read the same setting.
     */
    public static final ConfigOption<Boolean> INCREMENTAL_CHECKPOINTS = ConfigOption.booleanOption(
            "state.backend.incremental", false,
            "Whether RocksDB checkpoints upload only the SST files no completed checkpoint of the same store "
                    + "instance uploaded before, and refer to the earlier uploads for the rest. Savepoints are "
                    + "always self-contained.");

    public RocksDBSettings {
        requirePositive(RocksDBOptions.MANAGED_MEMORY_SIZE.key(), managedMemoryBytes);
        requirePositive(RocksDBOptions.WRITE_BUFFER_SIZE.key(), writeBufferSize);
        requirePositive(RocksDBOptions.MAX_WRITE_BUFFER_NUMBER.key(), maxWriteBufferNumber);
        requirePositive(RocksDBOptions.BACKGROUND_THREADS.key(), backgroundThreads);
        requirePositive(RocksDBOptions.BLOCK_SIZE.key(), blockSize);
        requirePositive(RocksDBOptions.TIMER_CACHE_SIZE.key(), timerCacheSize);
        if (valueCacheSize < 0) {
            throw new IllegalArgumentException(String.format(
                    "Configuration option '%s' must be 0 (off) or positive, was %s",
                    RocksDBOptions.VALUE_CACHE_SIZE.key(), valueCacheSize));
        }
    }

    /** The settings {@code configuration} gives, defaults for what it leaves out. */
    public static RocksDBSettings from(Configuration configuration) {
        return new RocksDBSettings(
                configuration.get(RocksDBOptions.LOCAL_DIRECTORIES).trim(),
                configuration.get(RocksDBOptions.MANAGED_MEMORY_SIZE),
                RocksDBOptions.writeBufferRatio(configuration),
                configuration.get(RocksDBOptions.WRITE_BUFFER_SIZE),
                configuration.get(RocksDBOptions.MAX_WRITE_BUFFER_NUMBER),
                configuration.get(RocksDBOptions.BACKGROUND_THREADS),
                configuration.get(RocksDBOptions.BLOCK_SIZE),
                configuration.get(RocksDBOptions.USE_BLOOM_FILTER),
                configuration.get(RocksDBOptions.TIMER_CACHE_SIZE),
                configuration.get(RocksDBOptions.VALUE_CACHE_SIZE),
                RocksDBOptions.inplaceUpdateSupport(configuration),
                configuration.get(INCREMENTAL_CHECKPOINTS));
    }

    private static void requirePositive(String key, long value) {
        if (value <= 0) {
            throw new IllegalArgumentException(String.format(
                    "Configuration option '%s' must be positive, was %s", key, value));
        }
    }
}
