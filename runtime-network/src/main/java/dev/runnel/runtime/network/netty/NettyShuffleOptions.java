package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.ConfigOption;

/**
 * Configuration of the network shuffle, with Flink's keys where Flink has the same knob. Constants only.
 *
 * <pre>
 *   taskmanager.data.bind-host                              where the data server listens (127.0.0.1)
 *   taskmanager.data.port                                   its port (0: any free port)
 *   taskmanager.memory.segment-size                         size of one network buffer (32kb)
 *   taskmanager.network.numberOfBuffers                     buffers in the TaskManager's pool (2048)
 *   taskmanager.network.memory.buffers-per-channel          exclusive receive buffers per remote channel (2)
 *   taskmanager.network.memory.floating-buffers-per-gate    shared receive buffers per gate (8)
 *   taskmanager.network.memory.max-buffers-per-channel      buffers a sending channel may queue (10)
 *   security.cluster.secret                                 shared secret every connection proves (required)
 *   taskmanager.network.connect-timeout                     ms to connect and authenticate (10000)
 *   taskmanager.network.netty.server.numThreads             Netty event loop threads of the TaskManager (1)
 *   security.ssl.internal.enabled                           TLS on every data connection (false)
 *   security.ssl.internal.keystore / -password / key-password   this TaskManager's key and certificate (PKCS12 or JKS)
 *   security.ssl.internal.truststore / -password            the certificates a peer must present
 * </pre>
 *
 * With TLS on, both sides present and verify certificates (mutual TLS), the client checks that the server's
 * certificate names the address it connected to (a subject alternative name), and the secret handshake
 * still runs inside the encrypted connection.
 */
public final class NettyShuffleOptions {

    public static final ConfigOption<String> BIND_HOST = ConfigOption.stringOption("taskmanager.data.bind-host",
            "127.0.0.1", "The address the TaskManager's data server binds to; loopback unless configured.");

    public static final ConfigOption<Integer> DATA_PORT = ConfigOption.intOption("taskmanager.data.port", 0,
            "The port of the TaskManager's data server; 0 picks a free port.");

    public static final ConfigOption<Long> SEGMENT_SIZE = ConfigOption.memoryOption("taskmanager.memory.segment-size",
            32 * 1024, "The size of one network buffer; records are serialized into buffers of this size.");

    public static final ConfigOption<Integer> NUMBER_OF_BUFFERS = ConfigOption.intOption(
            "taskmanager.network.numberOfBuffers", 2048,
            "Network buffers in the TaskManager's pool, shared by all its tasks' remote channels.");

    public static final ConfigOption<Integer> BUFFERS_PER_CHANNEL = ConfigOption.intOption(
            "taskmanager.network.memory.buffers-per-channel", 2,
            "Exclusive receive buffers of each remote input channel: its guaranteed credit.");

    public static final ConfigOption<Integer> FLOATING_BUFFERS_PER_GATE = ConfigOption.intOption(
            "taskmanager.network.memory.floating-buffers-per-gate", 8,
            "Receive buffers an input gate lends to whichever of its channels announces a backlog.");

    public static final ConfigOption<Integer> MAX_BUFFERS_PER_CHANNEL = ConfigOption.intOption(
            "taskmanager.network.memory.max-buffers-per-channel", 10,
            "Buffers one sending channel may fill and queue before its writer reports backpressure.");

    public static final ConfigOption<String> CLUSTER_SECRET = ConfigOption.stringOption("security.cluster.secret",
            null, "The secret every TaskManager of a cluster shares; each data connection proves it with an"
                    + " HMAC challenge-response, and it never crosses the wire.");

    public static final ConfigOption<Long> CONNECT_TIMEOUT = ConfigOption.longOption(
            "taskmanager.network.connect-timeout", 10_000L,
            "Milliseconds to connect to another TaskManager's data server and authenticate.");

    public static final ConfigOption<Integer> NETTY_THREADS = ConfigOption.intOption(
            "taskmanager.network.netty.server.numThreads", 1,
            "Event loop threads for the TaskManager's data server and its connections to other TaskManagers.");

    public static final ConfigOption<Boolean> SSL_INTERNAL_ENABLED = ConfigOption.booleanOption(
            "security.ssl.internal.enabled", false, "Encrypt every data connection between TaskManagers with TLS.");

    public static final ConfigOption<String> SSL_INTERNAL_KEYSTORE = ConfigOption.stringOption(
            "security.ssl.internal.keystore", null, "The key store with this TaskManager's key and certificate.");

    public static final ConfigOption<String> SSL_INTERNAL_KEYSTORE_PASSWORD = ConfigOption.stringOption(
            "security.ssl.internal.keystore-password", null, "The password of the key store.");

    public static final ConfigOption<String> SSL_INTERNAL_KEY_PASSWORD = ConfigOption.stringOption(
            "security.ssl.internal.key-password", null, "The password of the key in the key store.");

    public static final ConfigOption<String> SSL_INTERNAL_TRUSTSTORE = ConfigOption.stringOption(
            "security.ssl.internal.truststore", null, "The trust store with the certificates peers must present.");

    public static final ConfigOption<String> SSL_INTERNAL_TRUSTSTORE_PASSWORD = ConfigOption.stringOption(
            "security.ssl.internal.truststore-password", null, "The password of the trust store.");

    private NettyShuffleOptions() {}
}
