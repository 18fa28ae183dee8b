package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.SecurityOptions;
import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import io.netty.handler.ssl.ClientAuth;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.TrustManagerFactory;

/**
 * The TLS contexts of the data plane when {@code security.ssl.internal.enabled} is set: the same key store and
 * trust store for both roles, and client certificates required, so both ends prove who they are. A missing
 * or unreadable store fails at start-up naming the option and the file. Stateless.
 */
final class TlsContexts {

    /** The server's and the client's context, or null for both when TLS is off. */
    record Pair(SslContext server, SslContext client) {}

    private TlsContexts() {}

    static Pair fromConfiguration(Configuration configuration) {
        if (!configuration.get(SecurityOptions.SSL_INTERNAL_ENABLED)) {
            return new Pair(null, null);
        }
        try {
            KeyStore keys = load(configuration, SecurityOptions.SSL_INTERNAL_KEYSTORE,
                    SecurityOptions.SSL_INTERNAL_KEYSTORE_PASSWORD);
            KeyStore trusted = load(configuration, SecurityOptions.SSL_INTERNAL_TRUSTSTORE,
                    SecurityOptions.SSL_INTERNAL_TRUSTSTORE_PASSWORD);
            String keyPassword = configuration.get(SecurityOptions.SSL_INTERNAL_KEY_PASSWORD);
            if (keyPassword == null) {
                keyPassword = configuration.get(SecurityOptions.SSL_INTERNAL_KEYSTORE_PASSWORD);
            }
            KeyManagerFactory keyManagers = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keyManagers.init(keys, keyPassword.toCharArray());
            TrustManagerFactory trustManagers = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trustManagers.init(trusted);
            SslContext server = SslContextBuilder.forServer(keyManagers).trustManager(trustManagers)
                    .clientAuth(ClientAuth.REQUIRE).sslProvider(SslProvider.JDK).build();
            SslContext client = SslContextBuilder.forClient().keyManager(keyManagers).trustManager(trustManagers)
                    .sslProvider(SslProvider.JDK).build();
            return new Pair(server, client);
        } catch (GeneralSecurityException | IOException e) {
            throw new IllegalArgumentException("TLS for the data plane (" + SecurityOptions.SSL_INTERNAL_ENABLED.key()
                    + ") cannot be set up: " + e.getMessage(), e);
        }
    }

    private static KeyStore load(Configuration configuration, ConfigOption<String> file, ConfigOption<String> password)
            throws GeneralSecurityException, IOException {
        String path = configuration.get(file);
        String secret = configuration.get(password);
        if (path == null || secret == null) {
            throw new IllegalArgumentException(SecurityOptions.SSL_INTERNAL_ENABLED.key() + " is true, so "
                    + file.key() + " and " + password.key() + " must be set");
        }
        Path store = Path.of(path);
        if (!Files.isReadable(store)) {
            throw new IllegalArgumentException(file.key() + " = " + path + " is not a readable file");
        }
        KeyStore keyStore = KeyStore.getInstance(path.endsWith(".jks") ? "JKS" : "PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            keyStore.load(in, secret.toCharArray());
        }
        return keyStore;
    }
}
