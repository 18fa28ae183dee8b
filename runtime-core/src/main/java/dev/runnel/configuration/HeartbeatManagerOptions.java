package dev.runnel.configuration;

import java.time.Duration;

/** Heartbeats between a JobManager and its TaskManagers, with Flink's keys and defaults. Constants only. */
public final class HeartbeatManagerOptions {

    /** How often a TaskManager sends a heartbeat (with its task metrics). */
    public static final ConfigOption<Duration> HEARTBEAT_INTERVAL = ConfigOption.durationOption("heartbeat.interval",
            Duration.ofSeconds(10), "How often TaskManagers send heartbeats to the JobManager.");

    /** How long a TaskManager may stay silent before it is declared lost and its tasks fail. */
    public static final ConfigOption<Duration> HEARTBEAT_TIMEOUT = ConfigOption.durationOption("heartbeat.timeout",
            Duration.ofSeconds(50), "How long the JobManager waits for a heartbeat before it declares a TaskManager lost.");

    private HeartbeatManagerOptions() {}
}
