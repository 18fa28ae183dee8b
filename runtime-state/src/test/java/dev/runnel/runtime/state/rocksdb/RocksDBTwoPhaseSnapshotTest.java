package dev.runnel.runtime.state.rocksdb;

import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.contrib.streaming.state.RocksDBOptions;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.TwoPhaseSnapshotTestBase;
import org.junit.jupiter.api.Nested;

/**
 * The two-phase snapshot suite against the embedded RocksDB store: with its default value cache
 * (which holds every key of the suite, so snapshots take most values from the cache's copy), with a
 * small one (so that entries are evicted into RocksDB all the time and many keys are both in RocksDB
 * and in the cache), and with none (everything from the native snapshot).
 */
class RocksDBTwoPhaseSnapshotTest extends TwoPhaseSnapshotTestBase {

    @Override
    protected StateBackend backend() {
        return new EmbeddedRocksDBStateBackend();
    }

    @Nested
    class WithASmallValueCache extends TwoPhaseSnapshotTestBase {
        @Override
        protected StateBackend backend() {
            return withValueCache(64);
        }
    }

    @Nested
    class WithoutValueCache extends TwoPhaseSnapshotTestBase {
        @Override
        protected StateBackend backend() {
            return withValueCache(0);
        }
    }

    private static StateBackend withValueCache(int entries) {
        return new EmbeddedRocksDBStateBackend(
                new Configuration().setString(RocksDBOptions.VALUE_CACHE_SIZE.key(), Integer.toString(entries)));
    }
}
