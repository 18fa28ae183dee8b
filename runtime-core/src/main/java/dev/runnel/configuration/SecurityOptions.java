package dev.runnel.configuration;

/**
 * Security options of the connections between TaskManagers: Flink's {@code security.ssl.internal.*} keys for
 * mutual TLS, and Runnel's cluster secret, which every data connection proves with an HMAC challenge-response
 * whether or not TLS is on. With TLS both sides present and verify certificates, and the client checks that the
 * server's certificate names the address it connected to (a subject alternative name). Constants only.
 */
public final class SecurityOptions {

    /** Runnel's: the secret every TaskManager of a cluster shares; it never crosses the wire. */
    public static final ConfigOption<String> CLUSTER_SECRET = ConfigOption.stringOption("security.cluster.secret",
            null, "The secret every TaskManager of a cluster shares; each data connection proves it with an"
                    + " HMAC challenge-response, and it never crosses the wire.");

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

    private SecurityOptions() {}
}
