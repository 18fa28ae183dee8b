package dev.runnel.contrib.streaming.state;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendFactory;

/**
 * Makes {@code state.backend.type: rocksdb} (Flink's key; the older {@code state.backend: rocksdb} works
 * too) select {@link EmbeddedRocksDBStateBackend}; found through {@link java.util.ServiceLoader}. Stateless.
 */
public final class RocksDBStateBackendFactory implements StateBackendFactory {

    @Override
    public String name() {
        return EmbeddedRocksDBStateBackend.NAME;
    }

    /** A backend configured by {@code configuration} (copied; later changes do not reach it). */
    @Override
    public StateBackend createFromConfig(Configuration configuration) {
        return new EmbeddedRocksDBStateBackend(configuration);
    }
}
