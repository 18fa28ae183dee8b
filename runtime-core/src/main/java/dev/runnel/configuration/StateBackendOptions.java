package dev.runnel.configuration;

/**
 * The choice of state backend, with Flink's class, constant name, key and default. Constants only.
 *
 * <p>Flink's names are {@code hashmap} (state as objects on the heap) and {@code rocksdb}; Runnel's older
 * key {@code state.backend} and its name {@code heap} for the heap store are still read. The engine resolves
 * a name to a store with {@link dev.runnel.runtime.state.StateBackendFactory#STATE_BACKEND}.
 */
public final class StateBackendOptions {

    /** The state backend by its short name: {@code hashmap} (default) or {@code rocksdb}. */
    public static final ConfigOption<String> STATE_BACKEND = ConfigOptions
            .key("state.backend.type")
            .stringType()
            .defaultValue("hashmap")
            .withDeprecatedKeys("state.backend")
            .withDescription("The state backend: 'hashmap' (objects on the JVM heap) or 'rocksdb' (embedded RocksDB "
                    + "on local disk).");

    private StateBackendOptions() {}
}
