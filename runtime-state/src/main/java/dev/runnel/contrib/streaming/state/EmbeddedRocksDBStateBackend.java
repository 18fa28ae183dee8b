package dev.runnel.contrib.streaming.state;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.rocksdb.RocksDBKeyedStateBackend;
import dev.runnel.runtime.state.rocksdb.RocksDBSettings;
import java.util.Map;
import java.util.Objects;

/**
 * Keeps keyed state and timers in an embedded RocksDB instance on local disk, one per keyed operator
 * subtask: state larger than memory, at the cost of serializing on every access. Choose it with
 * {@code env.setStateBackend(new EmbeddedRocksDBStateBackend())} or {@code state.backend: rocksdb}.
 *
 * <p>Options are those of {@link RocksDBOptions}. Options set on this object win over the job's and
 * TaskManager's configuration; the rest come from there, then from the defaults.
 *
 * <p>A serializable, immutable-after-submission factory: it holds only configuration. Each keyed
 * state backend it creates owns its RocksDB instance and must be closed by the task.
 */
public class EmbeddedRocksDBStateBackend implements StateBackend {

    private static final long serialVersionUID = 1L;

    /** The configuration name of this store. */
    public static final String NAME = "rocksdb";

    /** Options set explicitly on this backend; applied over the task's configuration. */
    private final Configuration overrides;

    /** A backend that takes every option from the configuration the task is given. */
    public EmbeddedRocksDBStateBackend() {
        this(new Configuration());
    }

    /** A backend with {@code overrides} applied over the task's configuration. */
    public EmbeddedRocksDBStateBackend(Configuration overrides) {
        this.overrides = Objects.requireNonNull(overrides, "overrides").copy();
    }

    /** Sets the base directory of the working directories ({@link RocksDBOptions#LOCAL_DIRECTORIES}). */
    public EmbeddedRocksDBStateBackend setDbStoragePath(String path) {
        overrides.set(RocksDBOptions.LOCAL_DIRECTORIES, Objects.requireNonNull(path, "path"));
        return this;
    }

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public <K> KeyedStateBackend<K> createKeyedStateBackend(KeyedStateBackendParameters<K> parameters)
            throws Exception {
        return RocksDBKeyedStateBackend.create(parameters, RocksDBSettings.from(effectiveConfiguration(parameters)));
    }

    private Configuration effectiveConfiguration(KeyedStateBackendParameters<?> parameters) {
        Configuration effective = parameters.configuration().copy();
        for (Map.Entry<String, String> entry : overrides.toMap().entrySet()) {
            effective.setString(entry.getKey(), entry.getValue());
        }
        return effective;
    }

    @Override
    public String toString() {
        return "EmbeddedRocksDBStateBackend" + overrides.toMap();
    }
}
