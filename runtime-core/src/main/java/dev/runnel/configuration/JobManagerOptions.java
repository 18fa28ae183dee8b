package dev.runnel.configuration;

import java.time.Duration;

/** Options of a cluster's JobManager, with Flink's keys and (where safe) defaults. Constants only. */
public final class JobManagerOptions {

    /** Where TaskManagers and clients reach the JobManager's control plane (Flink's key). */
    public static final ConfigOption<String> ADDRESS = ConfigOption.stringOption("jobmanager.rpc.address", "127.0.0.1",
            "The address of the JobManager's control plane, as TaskManagers reach it.");

    /** The control plane's port (Flink's key and default). */
    public static final ConfigOption<Integer> PORT = ConfigOption.intOption("jobmanager.rpc.port", 6123,
            "The port of the JobManager's control plane.");

    /**
     * The address the control plane listens on. Flink listens on every interface by default; Runnel only on
     * loopback unless this says otherwise.
     */
    public static final ConfigOption<String> BIND_HOST = ConfigOption.stringOption("jobmanager.bind-host", "127.0.0.1",
            "The address the JobManager's control plane binds to; 0.0.0.0 for every interface.");

    /** How long a job waits for enough free slots before it fails (Flink's key and default). */
    public static final ConfigOption<Duration> SLOT_REQUEST_TIMEOUT = ConfigOption.durationOption(
            "slot.request.timeout", Duration.ofMinutes(5),
            "How long a job (or a restart of it) waits for enough free slots before it fails.");

    /** The memory of the JobManager process; bin/jobmanager.sh derives the JVM heap from it (Flink's key). */
    public static final ConfigOption<MemorySize> TOTAL_PROCESS_MEMORY = ConfigOption.memorySizeOption(
            "jobmanager.memory.process.size", MemorySize.parse("1024m"),
            "The memory of the JobManager process; bin/jobmanager.sh gives the JVM 3/4 of it as heap.");

    private JobManagerOptions() {}
}
