package dev.runnel.contrib.streaming.state;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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

    /** A number and an optional unit, as in Flink's durations. */
    private static final Pattern INTERVAL = Pattern.compile("(-?\\d+)\\s*([a-zA-Z]*)");

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
     * Whether memtables update hot keys in place. RocksDB then takes no native snapshot
     * ({@code getSnapshot()} returns null), so a snapshot's synchronous phase takes a checkpoint
     * instead (hard links, after flushing every memtable: hundreds of milliseconds for a million keys
     * against under one for a native snapshot), while every get+put of a hot key is cheaper (up to 2x
     * with the value cache off). {@code auto} weighs the two by whether the job checkpoints.
     */
    public static final ConfigOption<String> INPLACE_UPDATE_SUPPORT = ConfigOption.stringOption(
            "state.backend.rocksdb.memtable.inplace-update-support", "auto",
            "Whether RocksDB memtables overwrite a key's entry in place (inplace_update_support): faster "
                    + "read-modify-write of hot keys, but every snapshot then flushes the memtables and hard-links a "
                    + "checkpoint in its synchronous phase instead of taking a native RocksDB snapshot. 'auto' (default): "
                    + "in place unless the job checkpoints (execution.checkpointing.interval is positive), so periodic "
                    + "checkpoints keep their short pause and jobs that do not checkpoint keep the fast write path; "
                    + "'true' or 'false' decide it regardless.");

    /** Flink's key for the checkpoint interval; a positive duration means the job checkpoints. */
    public static final String CHECKPOINTING_INTERVAL_KEY = "execution.checkpointing.interval";

    /**
     * Whether {@code configuration} turns in-place memtable updates on, resolving {@code auto} with
     * {@link #checkpointingConfigured}.
     *
     * @throws IllegalArgumentException if the option is not auto, true or false, or the interval is no duration
     */
    public static boolean inplaceUpdateSupport(Configuration configuration) {
        String raw = configuration.get(INPLACE_UPDATE_SUPPORT).trim().toLowerCase(Locale.ROOT);
        return switch (raw) {
            case "true" -> true;
            case "false" -> false;
            case "auto" -> !checkpointingConfigured(configuration);
            default -> throw new IllegalArgumentException(String.format(
                    "Invalid value '%s' for configuration option '%s': expected auto, true or false",
                    configuration.get(INPLACE_UPDATE_SUPPORT), INPLACE_UPDATE_SUPPORT.key()));
        };
    }

    /**
     * Whether {@code configuration} sets {@value #CHECKPOINTING_INTERVAL_KEY} to a positive duration,
     * written as Flink accepts it: a number with an optional unit ({@code 10000}, {@code 500 ms},
     * {@code 10s}, {@code 1 min}), or ISO-8601 ({@code PT10S}). Absent, empty, zero or negative (Flink
     * writes -1 for "off") means no.
     *
     * @throws IllegalArgumentException if the value is none of these
     */
    public static boolean checkpointingConfigured(Configuration configuration) {
        String raw = configuration.getString(CHECKPOINTING_INTERVAL_KEY, "").trim();
        if (raw.isEmpty()) {
            return false;
        }
        if (raw.regionMatches(true, 0, "PT", 0, 2) || raw.regionMatches(true, 0, "-PT", 0, 3)) {
            try {
                Duration interval = Duration.parse(raw);
                return !interval.isNegative() && !interval.isZero();
            } catch (DateTimeParseException e) {
                throw invalidInterval(raw, e);
            }
        }
        Matcher m = INTERVAL.matcher(raw);
        if (!m.matches()) {
            throw invalidInterval(raw, null);
        }
        String unit = m.group(2).toLowerCase(Locale.ROOT);
        switch (unit) {
            case "", "ns", "nano", "nanos", "nanosecond", "nanoseconds", "us", "micro", "micros",
                    "microsecond", "microseconds", "ms", "milli", "millis", "millisecond", "milliseconds", "s",
                    "sec", "secs", "second", "seconds", "m", "min", "mins", "minute", "minutes", "h", "hour",
                    "hours", "d", "day", "days" -> { }
            default -> throw invalidInterval(raw, null);
        }
        try {
            return Long.parseLong(m.group(1)) > 0;
        } catch (NumberFormatException e) {
            throw invalidInterval(raw, e);
        }
    }

    private static IllegalArgumentException invalidInterval(String raw, Exception cause) {
        return new IllegalArgumentException(String.format(
                "Invalid value '%s' for configuration option '%s': expected a duration such as 10000 (ms), "
                        + "10 s, 1 min or PT10S, or -1 for no checkpoints", raw, CHECKPOINTING_INTERVAL_KEY), cause);
    }

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
