package dev.runnel.runtime.rest;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.configuration.RestOptions;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.File;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;

/** Builds the REST server's TLS context from Flink's {@code security.ssl.rest.*} keys. Stateless. */
final class RestSsl {

    private RestSsl() {}

    static SslContext serverContext(Configuration config) {
        String path = required(config, RestOptions.SSL_REST_KEYSTORE.key(), config.get(RestOptions.SSL_REST_KEYSTORE));
        String storePassword = required(config, RestOptions.SSL_REST_KEYSTORE_PASSWORD.key(),
                config.get(RestOptions.SSL_REST_KEYSTORE_PASSWORD));
        String keyPassword = config.getOptional(RestOptions.SSL_REST_KEY_PASSWORD).orElse(storePassword);
        try {
            KeyStore store = KeyStore.getInstance(new File(path), storePassword.toCharArray());
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(store, keyPassword.toCharArray());
            return SslContextBuilder.forServer(keys).build();
        } catch (Exception e) {
            throw new IllegalConfigurationException(String.format("cannot use the REST key store %s (%s): %s",
                    path, RestOptions.SSL_REST_KEYSTORE.key(), e.getMessage()), e);
        }
    }

    private static String required(Configuration config, String key, String value) {
        if (value == null || value.isEmpty()) {
            throw new IllegalConfigurationException("%s is true, so %s must be set",
                    RestOptions.SSL_REST_ENABLED.key(), key);
        }
        return value;
    }
}
