package dev.runnel.configuration;

/**
 * Options of the network shuffle between TaskManagers, with Flink's keys and constant names (Flink's
 * {@code NettyShuffleEnvironmentOptions}), so a Flink user's settings carry over. Constants only.
 */
public final class NettyShuffleEnvironmentOptions {

    /** Where the TaskManager's data server binds; loopback unless configured. */
    public static final ConfigOption<String> DATA_BIND_HOST = ConfigOption.stringOption("taskmanager.data.bind-host",
            "127.0.0.1", "The address the TaskManager's data server binds to; loopback unless configured.");

    public static final ConfigOption<Integer> DATA_PORT = ConfigOption.intOption("taskmanager.data.port", 0,
            "The port of the TaskManager's data server; 0 picks a free port.");

    public static final ConfigOption<Integer> NETWORK_NUM_BUFFERS = ConfigOption.intOption(
            "taskmanager.network.numberOfBuffers", 2048,
            "Network buffers in the TaskManager's pool, shared by all its tasks' remote channels.");

    public static final ConfigOption<Integer> NETWORK_BUFFERS_PER_CHANNEL = ConfigOption.intOption(
            "taskmanager.network.memory.buffers-per-channel", 2,
            "Exclusive receive buffers of each remote input channel: its guaranteed credit.");

    public static final ConfigOption<Integer> NETWORK_EXTRA_BUFFERS_PER_GATE = ConfigOption.intOption(
            "taskmanager.network.memory.floating-buffers-per-gate", 8,
            "Receive buffers an input gate lends to whichever of its channels announces a backlog.");

    public static final ConfigOption<Integer> NETWORK_MAX_BUFFERS_PER_CHANNEL = ConfigOption.intOption(
            "taskmanager.network.memory.max-buffers-per-channel", 10,
            "Buffers one sending channel may fill and queue before its writer reports backpressure.");

    public static final ConfigOption<Integer> NUM_THREADS_SERVER = ConfigOption.intOption(
            "taskmanager.network.netty.server.numThreads", 1,
            "Event loop threads for the TaskManager's data server and its connections to other TaskManagers.");

    /** Seconds to connect to another TaskManager's data server and authenticate (Flink's default is 120). */
    public static final ConfigOption<Integer> CLIENT_CONNECT_TIMEOUT_SECONDS = ConfigOption.intOption(
            "taskmanager.network.netty.client.connectTimeoutSec", 10,
            "Seconds to connect to another TaskManager's data server and complete the handshake.");

    private NettyShuffleEnvironmentOptions() {}
}
