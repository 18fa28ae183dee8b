package dev.runnel.api.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.core.execution.JobExecutionException;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.util.NetUtils;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** socketTextStream against a real server socket on the loopback interface. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SocketTextStreamTest {

    private static final String LOOPBACK = "127.0.0.1";

    /**
     * A loopback server that accepts one connection per payload, writes the payload and closes it;
     * then stops. Counts the connections it accepted.
     */
    private static final class Server implements AutoCloseable {
        private final ServerSocket socket;
        private final AtomicInteger accepted = new AtomicInteger();
        private final CompletableFuture<Void> done;

        Server(String... payloads) throws IOException {
            socket = new ServerSocket(0, 5, InetAddress.getByName(LOOPBACK));
            socket.setSoTimeout(30_000);
            done = CompletableFuture.runAsync(() -> serve(payloads));
        }

        private void serve(String[] payloads) {
            for (String payload : payloads) {
                try (Socket client = socket.accept(); OutputStream out = client.getOutputStream()) {
                    accepted.incrementAndGet();
                    out.write(payload.getBytes(StandardCharsets.UTF_8));
                    out.flush();
                } catch (IOException e) {
                    throw new IllegalStateException("test server failed", e);
                }
            }
        }

        int port() {
            return socket.getLocalPort();
        }

        int accepted() throws Exception {
            done.get(30, TimeUnit.SECONDS);
            return accepted.get();
        }

        @Override
        public void close() throws IOException {
            socket.close();
        }
    }

    private static List<String> collect(StreamExecutionEnvironment env, String host, int port, String delimiter,
            long maxRetry) throws Exception {
        List<String> out = new ArrayList<>();
        env.socketTextStream(host, port, delimiter, maxRetry).executeAndCollect().forEachRemaining(out::add);
        return out;
    }

    @Test
    void linesUntilTheServerClosesThenTheRest() throws Exception {
        try (Server server = new Server("hello\nworld\r\nüber\nlast")) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
            List<String> out = new ArrayList<>();
            env.socketTextStream(LOOPBACK, server.port()).executeAndCollect().forEachRemaining(out::add);
            assertThat(out).containsExactly("hello", "world", "über", "last");
            assertThat(server.accepted()).isEqualTo(1);
        }
    }

    @Test
    void aCustomDelimiterKeepsEmptyRecordsAndCarriageReturns() throws Exception {
        try (Server server = new Server("a;;b\r;c;")) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
            assertThat(collect(env, LOOPBACK, server.port(), ";", 0)).containsExactly("a", "", "b\r", "c");
        }
    }

    @Test
    void aMultiCharacterDelimiterSplitAcrossReads() throws Exception {
        StringBuilder payload = new StringBuilder();
        List<String> expected = new ArrayList<>();
        for (int i = 0; i < 3000; i++) {
            payload.append("record-").append(i).append("<|>");
            expected.add("record-" + i);
        }
        try (Server server = new Server(payload.toString())) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
            assertThat(collect(env, LOOPBACK, server.port(), "<|>", 0)).containsExactlyElementsOf(expected);
        }
    }

    @Test
    void reconnectsUntilItConnectedMaxRetryTimesKeepingAPartialRecord() throws Exception {
        try (Server server = new Server("one\ntw", "o\nthree\n", "four")) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
            assertThat(collect(env, LOOPBACK, server.port(), "\n", 3)).containsExactly("one", "two", "three", "four");
            assertThat(server.accepted()).isEqualTo(3);
        }
    }

    @Test
    void deprecatedCharDelimiter() throws Exception {
        try (Server server = new Server("x|y")) {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
            List<String> out = new ArrayList<>();
            @SuppressWarnings("deprecation")
            var stream = env.socketTextStream(LOOPBACK, server.port(), '|');
            stream.executeAndCollect().forEachRemaining(out::add);
            assertThat(out).containsExactly("x", "y");
        }
    }

    @Test
    void aRefusedConnectionFailsTheJobNamingTheAddress() throws Exception {
        int port;
        try (NetUtils.Port free = NetUtils.getAvailablePort()) {
            port = free.getPort();
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
            env.socketTextStream(LOOPBACK, port).print();
            assertThatThrownBy(() -> env.execute("no server")).isInstanceOf(JobExecutionException.class)
                    .hasStackTraceContaining("Could not connect to socket 127.0.0.1:" + port)
                    .hasStackTraceContaining("is a server listening there");
        }
    }

    @Test
    void badArgumentsAreRejectedWhenTheSourceIsDefined() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        assertThatThrownBy(() -> env.socketTextStream(LOOPBACK, 0)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("port is out of range: 0 (valid: 1..65535)");
        assertThatThrownBy(() -> env.socketTextStream(LOOPBACK, 9999, "\n", -2))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxNumRetries must be zero or larger (num retries), or -1 (infinite retries), was -2");
        assertThatThrownBy(() -> env.socketTextStream(LOOPBACK, 9999, "")).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("delimiter must not be empty");
        assertThatThrownBy(() -> env.socketTextStream(null, 9999)).isExactlyInstanceOf(NullPointerException.class)
                .hasMessage("hostname must not be null");
    }
}
