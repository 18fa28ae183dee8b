package dev.runnel.runtime.rest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.configuration.RestOptions;
import java.io.FileInputStream;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** TLS (Flink's security.ssl.rest.* keys) lets the server bind beyond loopback without a token, over HTTPS. */
@Timeout(120)
class RestEndpointTlsTest {

    private static final String PASSWORD = "changeit-rest";

    @TempDir
    Path dir;

    /** A self-signed key for 127.0.0.1, made with the JDK's keytool. */
    private Path keyStore() throws Exception {
        Path store = dir.resolve("rest.p12");
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        Process p = new ProcessBuilder(keytool.toString(), "-genkeypair", "-alias", "rest", "-keyalg", "RSA",
                "-keysize", "2048", "-validity", "2", "-dname", "CN=127.0.0.1", "-ext", "SAN=ip:127.0.0.1",
                "-storetype", "PKCS12", "-keystore", store.toString(), "-storepass", PASSWORD, "-keypass", PASSWORD)
                .redirectErrorStream(true).redirectOutput(dir.resolve("keytool.log").toFile()).start();
        try {
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("keytool finished").isTrue();
        } finally {
            p.destroyForcibly();
        }
        assertThat(p.exitValue()).as(Files.readString(dir.resolve("keytool.log"))).isZero();
        return store;
    }

    @Test
    void servesHttpsBeyondLoopbackWithoutAToken() throws Exception {
        Path store = keyStore();
        Configuration config = new Configuration();
        config.set(RestOptions.BIND_ADDRESS, "0.0.0.0");
        config.set(RestOptions.SSL_REST_ENABLED, true);
        config.set(RestOptions.SSL_REST_KEYSTORE, store.toString());
        config.set(RestOptions.SSL_REST_KEYSTORE_PASSWORD, PASSWORD);
        try (RestServerFixture f = new RestServerFixture(dir.resolve("uploads"), config, null)) {
            assertThat(f.server.url()).startsWith("https://");
            KeyStore trust = KeyStore.getInstance("PKCS12");
            try (InputStream in = new FileInputStream(store.toFile())) {
                trust.load(in, PASSWORD.toCharArray());
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trust);
            SSLContext ssl = SSLContext.getInstance("TLS");
            ssl.init(null, tmf.getTrustManagers(), null);
            HttpClient client = HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(5)).build();
            URI overview = URI.create("https://127.0.0.1:" + f.server.port() + "/overview");
            HttpResponse<String> response = client.send(HttpRequest.newBuilder(overview).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).isEqualTo(200);
            assertThat(response.body()).contains("\"slots-total\":8");

            HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
            assertThatThrownBy(() -> plain.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + f.server.port() + "/overview")).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString())).as("no plain HTTP on a TLS port").isNotNull();
        }
    }

    @Test
    void aWrongKeyStorePasswordIsAClearError() throws Exception {
        Path store = keyStore();
        Configuration config = new Configuration();
        config.set(RestOptions.PORT, 0);
        config.set(RestOptions.SSL_REST_ENABLED, true);
        config.set(RestOptions.SSL_REST_KEYSTORE, store.toString());
        config.set(RestOptions.SSL_REST_KEYSTORE_PASSWORD, "wrong");
        RestServerEndpoint server = new RestServerEndpoint(config, new InMemoryDispatcherGateway(), dir);
        assertThatThrownBy(server::start).isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining(store.toString()).hasMessageContaining("security.ssl.rest.keystore");
        server.close();
    }
}
