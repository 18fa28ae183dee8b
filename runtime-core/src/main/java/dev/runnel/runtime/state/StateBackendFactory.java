package dev.runnel.runtime.state;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.ConfigOptions;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.StateBackendOptions;
import java.util.Locale;

/**
 * Creates a {@link StateBackend} from configuration; found with {@link java.util.ServiceLoader} and
 * chosen by {@link #name()} matching {@link #STATE_BACKEND}. This is how the engine gets a store
 * without naming its implementation.
 */
public interface StateBackendFactory {

    /**
     * The {@link #name()} of the factory the configuration selects. It reads Flink's key
     * {@code state.backend.type} ({@link StateBackendOptions#STATE_BACKEND}), or Runnel's older
     * {@code state.backend}, and resolves Flink's name {@code hashmap} to the heap store's factory name
     * {@code heap} (see {@link #factoryName}). Writing {@code heap}
     * stores Flink's {@code hashmap}, so a job's configuration always carries Flink's value.
     */
    ConfigOption<String> STATE_BACKEND = ConfigOptions.key(StateBackendOptions.STATE_BACKEND.key())
            .customType(StateBackendFactory::factoryName,
                    (String name) -> "heap".equals(name) ? StateBackendOptions.STATE_BACKEND.defaultValue() : name)
            .defaultValue("heap")
            .withDeprecatedKeys("state.backend")
            .withDescription("Where keyed state and timers live: 'hashmap' (objects on the JVM heap; Runnel's "
                    + "older name 'heap' works too) or 'rocksdb' (embedded RocksDB on local disk).");

    String name();

    StateBackend createFromConfig(Configuration configuration);

    /**
     * The factory name a configured state backend name stands for: {@code hashmap} and {@code heap} (in
     * any case) are the heap store's, {@code rocksdb} in any case RocksDB's; other names are kept as written.
     * Flink 1.x's legacy names {@code jobmanager} and {@code filesystem} (MemoryStateBackend and
     * FsStateBackend, both of which keep state on the heap; the Flink training's RidesAndFares sets
     * {@code state.backend: filesystem}) are the heap store's too; where checkpoints go is configured
     * apart from the store, by the checkpoint directory.
     */
    static String factoryName(String configured) {
        String name = configured.trim();
        if (name.isEmpty()) {
            throw new IllegalArgumentException("expected a state backend name: 'hashmap' or 'rocksdb'");
        }
        String lower = name.toLowerCase(Locale.ROOT);
        return switch (lower) {
            case "hashmap", "heap", "filesystem", "jobmanager" -> "heap";
            case "rocksdb" -> "rocksdb";
            default -> name;
        };
    }
}
