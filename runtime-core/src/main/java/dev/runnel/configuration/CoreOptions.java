package dev.runnel.configuration;

/**
 * Core configuration options, at Flink's {@code CoreOptions} path. Only the options Runnel reads
 * are here.
 */
public final class CoreOptions {

    /**
     * The parallelism of operators that set none. When absent, an environment on the embedded
     * runtime uses the number of CPU cores, as Flink's local environment does.
     */
    public static final ConfigOption<Integer> DEFAULT_PARALLELISM = ConfigOption.intOption("parallelism.default", 1,
            "The parallelism of operators that set none; when absent, local environments use the number of CPU cores.");

    private CoreOptions() {}
}
