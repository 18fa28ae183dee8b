package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.SecurityOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Mutual TLS on the data plane: records flow encrypted; a peer without TLS cannot connect. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TlsTest extends NettyShuffleTestBase {

    @TempDir
    static Path stores;

    static Path keyStore;

    /** A self-signed key pair made by the JDK's keytool, valid for loopback (the client checks the server's
     *  address against the certificate); the same file serves as the trust store. */
    @BeforeAll
    static void makeKeyStore() throws Exception {
        keyStore = stores.resolve("internal.p12");
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "runnel", "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=runnel-test", "-ext", "SAN=ip:127.0.0.1,dns:localhost", "-storetype", "PKCS12", "-keystore", keyStore.toString(),
                "-storepass", "changeit", "-keypass", "changeit").redirectErrorStream(true).start();
        assertThat(keytool.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(keytool.exitValue()).as(new String(keytool.getInputStream().readAllBytes())).isZero();
    }

    static Configuration tls(String taskManager) {
        return config(taskManager, SECRET)
                .set(SecurityOptions.SSL_INTERNAL_ENABLED, true)
                .set(SecurityOptions.SSL_INTERNAL_KEYSTORE, keyStore.toString())
                .set(SecurityOptions.SSL_INTERNAL_KEYSTORE_PASSWORD, "changeit")
                .set(SecurityOptions.SSL_INTERNAL_TRUSTSTORE, keyStore.toString())
                .set(SecurityOptions.SSL_INTERNAL_TRUSTSTORE_PASSWORD, "changeit");
    }

    @Test
    void recordsFlowOverMutualTls() throws Exception {
        NettyShuffleEnvironment a = start(tls("tm-a"));
        NettyShuffleEnvironment b = start(tls("tm-b"));
        TaskWaker me = TaskWaker.forCurrentThread();
        InputGate gate = gate(b, "e", 0, List.of(a), StringSerializer.INSTANCE, me);
        ResultPartitionWriter writer = writer(a, "e", 0, List.of(b), StringSerializer.INSTANCE, me);
        for (int i = 0; i < 1000; i++) {
            writer.emitRecord("secret record " + i, i, 0);
        }
        writer.finish();
        writer.close();
        List<Object> received = drain(gate, me, 10_000).get(0);
        assertThat(received).hasSize(1001).startsWith("secret record 0").endsWith("EndOfPartition");
        gate.close();
        assertPoolsFull();
    }

    @Test
    void aPeerWithoutTlsCannotConnect() throws Exception {
        NettyShuffleEnvironment server = start(tls("tm-a"));
        NettyShuffleEnvironment plain = start(config("tm-plain", SECRET));
        assertThatThrownBy(() -> gate(plain, "e", 0, List.of(server), StringSerializer.INSTANCE,
                TaskWaker.forCurrentThread()))
                .isInstanceOf(ChannelFailedException.class)
                .hasMessageContaining("tm-a");
        assertPoolsFull();
    }

    @Test
    void aMissingKeyStoreIsNamedAtStartUp() {
        Configuration conf = tls("tm-a").set(SecurityOptions.SSL_INTERNAL_KEYSTORE, "/nonexistent/store.p12");
        assertThatThrownBy(() -> start(conf))
                .hasMessageContaining("security.ssl.internal.keystore")
                .hasMessageContaining("/nonexistent/store.p12");
    }
}
