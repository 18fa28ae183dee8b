package dev.runnel.runtime.network.netty;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.shuffle.TaskLocation;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.slf4j.LoggerFactory;

/**
 * Peers that talk nonsense: each is disconnected with one log line naming its address and the reason, the
 * data server keeps serving, no buffer leaks; a producer that drops the connection mid-buffer fails exactly
 * the channel that depended on it, naming the remote TaskManager.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class BadPeerTest extends NettyShuffleTestBase {

    private final ListAppender<ILoggingEvent> log = new ListAppender<>();
    private NettyShuffleEnvironment server;

    @BeforeEach
    void startServerAndCaptureLogs() {
        log.start();
        for (Class<?> type : List.of(HandshakeHandler.class, FrameDecoder.class, ServerConnectionHandler.class,
                ClientConnection.class)) {
            ((Logger) LoggerFactory.getLogger(type)).addAppender(log);
        }
        server = start(config("tm-server", SECRET));
    }

    @AfterEach
    void detachLogs() {
        for (Class<?> type : List.of(HandshakeHandler.class, FrameDecoder.class, ServerConnectionHandler.class,
                ClientConnection.class)) {
            ((Logger) LoggerFactory.getLogger(type)).detachAppender(log);
        }
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket();
        socket.connect(server.dataAddress(), 5000);
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Reads until the server closes the connection; fails if it does not within the socket timeout. */
    private static void assertClosedByServer(Socket socket) throws IOException {
        try (socket) {
            DataInputStream in = new DataInputStream(socket.getInputStream());
            while (in.read() >= 0) {
                // discard whatever the server said before closing
            }
        } catch (java.net.SocketException reset) {
            // a reset is a close too
        }
    }

    private void assertOneWarning(String... fragments) throws InterruptedException {
        await(() -> log.list.stream().anyMatch(e -> e.getLevel() == Level.WARN), "a warning was logged");
        Thread.sleep(50); // let a possible second line arrive, so 'one line' is checked, not assumed
        List<ILoggingEvent> warnings = log.list.stream().filter(e -> e.getLevel().isGreaterOrEqual(Level.WARN)).toList();
        assertThat(warnings).hasSize(1);
        assertThat(warnings.get(0).getFormattedMessage()).contains(fragments);
        assertThat(warnings.get(0).getThrowableProxy()).as("one line, no stack trace").isNull();
    }

    private void assertServerStillServes() throws Exception {
        NettyShuffleEnvironment client = start(config("tm-client-" + System.nanoTime(), SECRET));
        TaskWaker me = TaskWaker.forCurrentThread();
        String edge = "ok-" + System.nanoTime();
        InputGate gate = gate(client, edge, 0, List.of(server), StringSerializer.INSTANCE, me);
        ResultPartitionWriter writer = writer(server, edge, 0, List.of(client), StringSerializer.INSTANCE, me);
        writer.emitRecord("alive", 1, 0);
        writer.finish();
        writer.close();
        assertThat(drain(gate, me, 10_000).get(0)).containsExactly("alive", "EndOfPartition");
        gate.close();
        assertPoolsFull();
    }

    private static byte[] frame(int type, byte[] body) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.writeInt(1 + body.length);
        out.writeByte(type);
        out.write(body);
        return bytes.toByteArray();
    }

    private static byte[] hello(int version, byte[] nonce) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(body);
        out.writeInt(Protocol.MAGIC);
        out.writeInt(version);
        byte[] name = "raw-peer".getBytes(StandardCharsets.UTF_8);
        out.writeShort(name.length);
        out.write(name);
        out.write(nonce);
        return frame(Protocol.HELLO, body.toByteArray());
    }

    /** Completes the client side of the handshake with {@code secret} over a raw socket. */
    private Socket authenticated(String secret) throws IOException {
        Socket socket = connect();
        byte[] nonce = Authenticator.nonce();
        socket.getOutputStream().write(hello(Protocol.VERSION, nonce));
        DataInputStream in = new DataInputStream(socket.getInputStream());
        int length = in.readInt();
        byte[] challenge = new byte[length];
        in.readFully(challenge);
        int nameLength = ((challenge[5] & 0xFF) << 8) | (challenge[6] & 0xFF);
        int at = 7 + nameLength;
        byte[] serverNonce = java.util.Arrays.copyOfRange(challenge, at, at + Protocol.NONCE_BYTES);
        byte[] proof = new Authenticator(secret).clientProof(nonce, serverNonce);
        socket.getOutputStream().write(frame(Protocol.RESPONSE, proof));
        int okLength = in.readInt();
        assertThat(in.readByte()).as("AUTH_OK").isEqualTo(Protocol.AUTH_OK);
        assertThat(okLength).isEqualTo(1);
        return socket;
    }

    @Test
    void garbageBytesAreRefused() throws Exception {
        Socket socket = connect();
        socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
        assertClosedByServer(socket);
        assertOneWarning("rejected", "TooLongFrameException");
        assertServerStillServes();
    }

    @Test
    void anOversizedLengthIsRefused() throws Exception {
        Socket socket = authenticated(SECRET);
        new DataOutputStream(socket.getOutputStream()).writeInt(64 * 1024 * 1024);
        assertClosedByServer(socket);
        assertOneWarning("closing the connection", "raw-peer", "TooLongFrameException");
        assertServerStillServes();
    }

    @Test
    void aTruncatedFrameIsReported() throws Exception {
        Socket socket = connect();
        DataOutputStream out = new DataOutputStream(socket.getOutputStream());
        out.writeInt(100);
        out.write(new byte[10]);
        out.flush();
        socket.shutdownOutput();
        assertClosedByServer(socket);
        assertOneWarning("closed in the middle of a frame", "14 of 104 bytes arrived");
        assertServerStillServes();
    }

    @Test
    void anUnknownMessageTypeIsRefused() throws Exception {
        Socket socket = authenticated(SECRET);
        socket.getOutputStream().write(frame(99, new byte[] {1, 2, 3}));
        assertClosedByServer(socket);
        assertOneWarning("raw-peer", "unknown type 99");
        assertServerStillServes();
    }

    @Test
    void aWrongSecretAndAnotherVersionAreRefusedByName() throws Exception {
        Socket wrongSecret = connect();
        byte[] nonce = Authenticator.nonce();
        wrongSecret.getOutputStream().write(hello(Protocol.VERSION, nonce));
        DataInputStream in = new DataInputStream(wrongSecret.getInputStream());
        in.readFully(new byte[in.readInt()]);
        wrongSecret.getOutputStream().write(frame(Protocol.RESPONSE, new byte[Protocol.MAC_BYTES]));
        assertClosedByServer(wrongSecret);
        assertOneWarning("raw-peer", "failed authentication", "security.cluster.secret");

        log.list.clear();
        Socket otherVersion = connect();
        otherVersion.getOutputStream().write(hello(2, Authenticator.nonce()));
        assertClosedByServer(otherVersion);
        assertOneWarning("speaks protocol version 2", "version 1");
        assertServerStillServes();
    }

    @Test
    void aProducerThatDropsTheConnectionMidBufferFailsTheChannelNamingIt() throws Exception {
        // A fake producer TaskManager: completes the server side of the handshake, then sends half a buffer.
        try (ServerSocket fake = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread producer = new Thread(() -> {
                try (Socket s = fake.accept()) {
                    DataInputStream in = new DataInputStream(s.getInputStream());
                    DataOutputStream out = new DataOutputStream(s.getOutputStream());
                    byte[] hello = new byte[in.readInt()];
                    in.readFully(hello);
                    int nameLength = ((hello[9] & 0xFF) << 8) | (hello[10] & 0xFF);
                    byte[] clientNonce = java.util.Arrays.copyOfRange(hello, 11 + nameLength, 11 + nameLength + 16);
                    byte[] serverNonce = Authenticator.nonce();
                    ByteArrayOutputStream body = new ByteArrayOutputStream();
                    DataOutputStream b = new DataOutputStream(body);
                    b.writeInt(Protocol.VERSION);
                    byte[] name = "tm-fake".getBytes(StandardCharsets.UTF_8);
                    b.writeShort(name.length);
                    b.write(name);
                    b.write(serverNonce);
                    b.write(new Authenticator(SECRET).serverProof(clientNonce, serverNonce));
                    out.write(frame(Protocol.CHALLENGE, body.toByteArray()));
                    in.readFully(new byte[in.readInt()]); // RESPONSE
                    out.write(frame(Protocol.AUTH_OK, new byte[0]));
                    in.readFully(new byte[in.readInt()]); // PARTITION_REQUEST
                    out.writeInt(1 + 4 + 4 + 1000);       // a BUFFER frame of 1000 bytes ...
                    out.writeByte(Protocol.BUFFER);
                    out.writeInt(0);
                    out.writeInt(0);
                    out.write(new byte[100]);              // ... of which 100 arrive
                    out.flush();
                } catch (IOException e) {
                    // the test fails on the consumer side if this goes wrong
                }
            });
            producer.start();
            NettyShuffleEnvironment consumer = start(config("tm-consumer", SECRET));
            TaskLocation fakeLocation = new TaskLocation("tm-fake",
                    new InetSocketAddress(fake.getInetAddress(), fake.getLocalPort()), 0);
            TaskWaker me = TaskWaker.forCurrentThread();
            InputGate gate = consumer.createInputGate(new InputGateDeploymentDescriptor(1, StringSerializer.INSTANCE,
                    List.of(new ChannelDescriptor(new ChannelId("e", 0, 0), fakeLocation, at(consumer)))), me);
            producer.join(10_000);
            assertThatThrownBy(() -> drain(gate, me, 10_000))
                    .isInstanceOf(ChannelFailedException.class)
                    .hasMessageContaining("tm-fake")
                    .hasMessageContaining("lost")
                    .hasMessageContaining("e[0->0]");
            gate.close();
            assertPoolsFull();
        }
    }
}
