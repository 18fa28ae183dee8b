package dev.runnel.runtime.state;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;

/**
 * Creates a {@link StateBackend} from configuration; found with {@link java.util.ServiceLoader} and
 * chosen by {@link #name()} matching {@link #STATE_BACKEND}. This is how the engine gets a store
 * without naming its implementation.
 */
public interface StateBackendFactory {

    ConfigOption<String> STATE_BACKEND = ConfigOption.stringOption("state.backend", "heap",
            "Where keyed state and timers live: 'heap' (objects on the JVM heap) or 'rocksdb' (embedded RocksDB on local disk).");

    String name();

    StateBackend createFromConfig(Configuration configuration);
}
