package dev.runnel.runtime.state.rocksdb;

import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.contrib.streaming.state.RocksDBOptions;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.TwoPhaseSnapshotTestBase;
import org.junit.jupiter.api.Nested;

/**
 * The two-phase snapshot suite against the embedded RocksDB store, along two axes.
 *
 * <p>How the synchronous phase captures RocksDB: with in-place memtable updates on (the default
 * here, where the job configures no checkpointing) a checkpoint, that is flushed memtables
 * hard-linked into a folder that the write opens read-only; with them off (forced, or {@code auto}
 * in a job that checkpoints) a native RocksDB snapshot.
 *
 * <p>The value cache: the default one (which holds every key of the suite, so snapshots take most
 * values from the cache's copy), a small one (so that entries are evicted into RocksDB all the time
 * and many keys are both in RocksDB and in the cache), and none (everything from RocksDB).
 */
class RocksDBTwoPhaseSnapshotTest extends TwoPhaseSnapshotTestBase {

    private static final String IN_PLACE = RocksDBOptions.INPLACE_UPDATE_SUPPORT.key();

    @Override
    protected StateBackend backend() {
        return new EmbeddedRocksDBStateBackend();
    }

    @Nested
    class InPlaceUpdatesThroughACheckpoint extends TwoPhaseSnapshotTestBase {
        @Override
        protected StateBackend backend() {
            return rocksdb(true, null);
        }
    }

    @Nested
    class InPlaceUpdatesThroughACheckpointWithASmallValueCache extends TwoPhaseSnapshotTestBase {
        @Override
        protected StateBackend backend() {
            return rocksdb(true, 64);
        }
    }

    @Nested
    class InPlaceUpdatesThroughACheckpointWithoutValueCache extends TwoPhaseSnapshotTestBase {
        @Override
        protected StateBackend backend() {
            return rocksdb(true, 0);
        }
    }

    @Nested
    class NativeSnapshot extends TwoPhaseSnapshotTestBase {
        @Override
        protected StateBackend backend() {
            return rocksdb(false, null);
        }
    }

    @Nested
    class NativeSnapshotWithASmallValueCache extends TwoPhaseSnapshotTestBase {
        @Override
        protected StateBackend backend() {
            return rocksdb(false, 64);
        }
    }

    @Nested
    class NativeSnapshotWithoutValueCache extends TwoPhaseSnapshotTestBase {
        @Override
        protected StateBackend backend() {
            return rocksdb(false, 0);
        }
    }

    /** {@code auto} in a job that checkpoints: native snapshots. */
    @Nested
    class AutoInACheckpointingJob extends TwoPhaseSnapshotTestBase {
        @Override
        protected StateBackend backend() {
            return new EmbeddedRocksDBStateBackend(new Configuration()
                    .setString(RocksDBOptions.CHECKPOINTING_INTERVAL_KEY, "10 s"));
        }
    }

    private static StateBackend rocksdb(boolean inPlace, Integer valueCacheEntries) {
        Configuration conf = new Configuration().setString(IN_PLACE, Boolean.toString(inPlace));
        if (valueCacheEntries != null) {
            conf.setString(RocksDBOptions.VALUE_CACHE_SIZE.key(), Integer.toString(valueCacheEntries));
        }
        return new EmbeddedRocksDBStateBackend(conf);
    }
}
