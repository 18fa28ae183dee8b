package dev.runnel.configuration;

/**
 * Options of the JobManager's REST endpoint (API and dashboard): Flink's {@code rest.*} keys, Flink's
 * {@code security.ssl.rest.*} keys for TLS, and Runnel's access token. Binding beyond loopback requires a
 * token or TLS; the server refuses to start otherwise. Constants only.
 */
public final class RestOptions {

    /** The address clients (the CLI) connect to. */
    public static final ConfigOption<String> ADDRESS = ConfigOption.stringOption("rest.address", "127.0.0.1",
            "The address the CLI and other REST clients connect to.");

    public static final ConfigOption<String> BIND_ADDRESS = ConfigOption.stringOption("rest.bind-address",
            "127.0.0.1", "The address the REST server binds to. Beyond loopback it requires rest.auth.token or"
                    + " security.ssl.rest.enabled.");

    public static final ConfigOption<Integer> PORT = ConfigOption.intOption("rest.port", 8081,
            "The port of the REST server (API and dashboard); 0 picks any free port.");

    public static final ConfigOption<MemorySize> SERVER_MAX_CONTENT_LENGTH = ConfigOption.memorySizeOption(
            "rest.server.max-content-length", MemorySize.ofMebiBytes(100),
            "The largest request body the REST server accepts (a job submission's jars included).");

    /** Flink's {@code web.timeout}: how long a request may wait for the JobManager's answer (then 504). */
    public static final ConfigOption<java.time.Duration> WEB_TIMEOUT = ConfigOption.durationOption("web.timeout",
            java.time.Duration.ofMinutes(10), "How long a REST request may wait for the JobManager's answer.");

    /** Runnel's: with a token set, every API request must carry {@code Authorization: Bearer <token>}. */
    public static final ConfigOption<String> AUTH_TOKEN = ConfigOption.stringOption("rest.auth.token", null,
            "The access token every REST request must carry as 'Authorization: Bearer <token>'.");

    public static final ConfigOption<Boolean> SSL_REST_ENABLED = ConfigOption.booleanOption(
            "security.ssl.rest.enabled", false, "Serve the REST API and dashboard over TLS (HTTPS).");

    public static final ConfigOption<String> SSL_REST_KEYSTORE = ConfigOption.stringOption(
            "security.ssl.rest.keystore", null, "The key store with the REST server's key and certificate.");

    public static final ConfigOption<String> SSL_REST_KEYSTORE_PASSWORD = ConfigOption.stringOption(
            "security.ssl.rest.keystore-password", null, "The password of the REST key store.");

    public static final ConfigOption<String> SSL_REST_KEY_PASSWORD = ConfigOption.stringOption(
            "security.ssl.rest.key-password", null, "The password of the key in the REST key store.");

    private RestOptions() {}
}
