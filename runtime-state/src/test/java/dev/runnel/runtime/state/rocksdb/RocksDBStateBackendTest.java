package dev.runnel.runtime.state.rocksdb;

import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendTestBase;

/** The shared state backend suite against the embedded RocksDB store (with its default value cache). */
class RocksDBStateBackendTest extends StateBackendTestBase {

    @Override
    protected StateBackend backend() {
        return new EmbeddedRocksDBStateBackend();
    }
}
