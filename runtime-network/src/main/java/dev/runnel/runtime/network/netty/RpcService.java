package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.SecurityOptions;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufInputStream;
import io.netty.buffer.ByteBufOutputStream;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Promise;
import java.io.IOException;
import java.io.InvalidClassException;
import java.io.ObjectInputFilter;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control plane between a JobManager and its TaskManagers: registration, heartbeats, deployment, task
 * states, checkpoint triggers and acknowledgements. One TCP connection per TaskManager, opened by the
 * TaskManager, carries messages both ways. Each connection starts with the data plane's handshake (a protocol
 * version and mutual HMAC authentication from {@code security.cluster.secret}, see {@link Authenticator}) under
 * its own magic number, then carries frames {@code [int length][byte MESSAGE][Java-serialized message]}.
 *
 * <p>Messages are plain serializable records of Runnel's and the JDK's classes; anything of the user's (job
 * graphs, splits, accumulators, exceptions) travels inside them as bytes, read later with the job's class
 * loader. Deserialization is filtered to {@code dev.runnel.*}, {@code java.*} and arrays, and happens only
 * after the peer authenticated. A frame of another type, an undecodable message or one above
 * {@link #MAX_FRAME_BYTES} closes the connection with one log line naming the peer; the server and its other
 * connections go on. Thread-safe: {@link Connection#send} may be called from any thread; handlers run on the
 * connection's event loop thread and must not block.
 */
public final class RpcService implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RpcService.class);

    static final int MAGIC = 0x524E4C43; // "RNLC"
    static final byte MESSAGE = 40;
    /** Deployments carry the user's jar: room for large ones. */
    public static final int MAX_FRAME_BYTES = 512 * 1024 * 1024;

    private static final ObjectInputFilter FILTER = info -> {
        Class<?> type = info.serialClass();
        if (type == null) {
            return info.depth() > 64 ? ObjectInputFilter.Status.REJECTED : ObjectInputFilter.Status.UNDECIDED;
        }
        while (type.isArray()) {
            type = type.getComponentType();
        }
        if (type.isPrimitive()) {
            return ObjectInputFilter.Status.ALLOWED;
        }
        String name = type.getName();
        return name.startsWith("dev.runnel.") || name.startsWith("java.")
                ? ObjectInputFilter.Status.ALLOWED : ObjectInputFilter.Status.REJECTED;
    };

    /** What the owner of an {@link RpcService} does with its connections. Called on an event loop thread. */
    public interface Handler {
        /** {@code connection} authenticated; {@link Connection#peerId()} is the id the peer gave. */
        default void onConnected(Connection connection) {}

        void onMessage(Connection connection, Serializable message);

        /** The connection closed, by either side; {@code cause} says why (null: closed normally). */
        default void onDisconnected(Connection connection, Throwable cause) {}
    }

    /** One authenticated control connection. */
    public static final class Connection {
        private final Channel channel;
        private final String peerId;

        private Connection(Channel channel, String peerId) {
            this.channel = channel;
            this.peerId = peerId;
        }

        /** The id the peer authenticated as (a TaskManager's resource id, or the JobManager's). */
        public String peerId() {
            return peerId;
        }

        public InetSocketAddress remoteAddress() {
            return (InetSocketAddress) channel.remoteAddress();
        }

        public boolean isOpen() {
            return channel.isActive();
        }

        /**
         * Sends {@code message} (serialized on the caller's thread, so a message that cannot be serialized fails
         * here). A message to a closed connection is dropped; the peer's loss is reported by its disconnect.
         */
        public void send(Serializable message) {
            ByteBuf frame = channel.alloc().buffer(256);
            frame.writeInt(0);
            frame.writeByte(MESSAGE);
            try (ObjectOutputStream out = new ObjectOutputStream(new ByteBufOutputStream(frame))) {
                out.writeObject(message);
            } catch (IOException e) {
                frame.release();
                throw new IllegalArgumentException("Control message " + message.getClass().getName()
                        + " cannot be serialized: " + e, e);
            }
            if (frame.readableBytes() - 4 > MAX_FRAME_BYTES) {
                int size = frame.readableBytes();
                frame.release();
                throw new IllegalArgumentException("Control message " + message.getClass().getSimpleName() + " is "
                        + size + " bytes, above the control plane's limit of " + MAX_FRAME_BYTES);
            }
            channel.writeAndFlush(Protocol.finish(frame));
        }

        public void close() {
            channel.close();
        }

        @Override
        public String toString() {
            return peerId + "@" + channel.remoteAddress();
        }
    }

    private final String localId;
    private final Authenticator authenticator;
    private final TlsContexts.Pair tls;
    private final long handshakeTimeoutMillis;
    private final EventLoopGroup eventLoop;
    private Channel server;

    /**
     * @param localId the id this process authenticates as
     * @param configuration {@code security.cluster.secret} (required) and the {@code security.ssl.internal.*} keys
     */
    public RpcService(String localId, Configuration configuration, long handshakeTimeoutMillis) {
        this.localId = localId;
        this.authenticator = new Authenticator(configuration.get(SecurityOptions.CLUSTER_SECRET));
        this.tls = TlsContexts.fromConfiguration(configuration);
        this.handshakeTimeoutMillis = handshakeTimeoutMillis;
        this.eventLoop = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("runnel-rpc-" + localId, true),
                Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
    }

    /** Listens on {@code host:port} (0: any free port); returns the address it got. */
    public InetSocketAddress listen(String host, int port, Handler handler) {
        ServerBootstrap bootstrap = Transports.server(eventLoop, tls, MAX_FRAME_BYTES, "Control server " + localId,
                () -> HandshakeHandler.controlServer(authenticator, localId, handshakeTimeoutMillis,
                        peer -> new MessageHandler(peer, handler, null)));
        try {
            server = bootstrap.bind(host, port).syncUninterruptibly().channel();
        } catch (RuntimeException e) {
            throw new IllegalStateException("The control server of " + localId + " cannot listen on " + host + ":"
                    + port + ": " + e.getMessage(), e);
        }
        return (InetSocketAddress) server.localAddress();
    }

    /**
     * Connects to the control server at {@code address} and authenticates; fails with a message naming the
     * address within about {@code timeoutMillis}.
     */
    public Connection connect(InetSocketAddress address, Handler handler, long timeoutMillis) throws IOException {
        Promise<String> authenticated = eventLoop.next().newPromise();
        Promise<Connection> ready = eventLoop.next().newPromise();
        Bootstrap bootstrap = Transports.client(eventLoop, tls, address, MAX_FRAME_BYTES, "Control client " + localId,
                timeoutMillis, () -> HandshakeHandler.controlClient(authenticator, localId, timeoutMillis,
                        peer -> new MessageHandler(peer, handler, ready), authenticated));
        ChannelFuture connected = bootstrap.connect(address);
        if (!connected.awaitUninterruptibly(timeoutMillis + 1000) || !connected.isSuccess()) {
            connected.channel().close();
            throw new IOException("Cannot connect to " + address + ": "
                    + (connected.cause() == null ? "timed out" : connected.cause().getMessage()));
        }
        if (!ready.awaitUninterruptibly(timeoutMillis + 1000) || !ready.isSuccess()) {
            connected.channel().close();
            Throwable cause = authenticated.cause();
            throw new IOException("The handshake with " + address + " failed: "
                    + (cause == null ? "timed out" : cause.getMessage()));
        }
        return ready.getNow();
    }

    @Override
    public void close() {
        if (server != null) {
            server.close().awaitUninterruptibly(2, TimeUnit.SECONDS);
        }
        eventLoop.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
    }

    /** Decodes the messages of one authenticated connection. */
    private static final class MessageHandler extends ChannelInboundHandlerAdapter {
        private final String peer;
        private final Handler handler;
        private final Promise<Connection> ready;
        private Connection connection;
        private Throwable failure;

        MessageHandler(String peer, Handler handler, Promise<Connection> ready) {
            this.peer = peer;
            this.handler = handler;
            this.ready = ready;
        }

        @Override
        public void handlerAdded(ChannelHandlerContext ctx) {
            connection = new Connection(ctx.channel(), peer);
            handler.onConnected(connection);
            if (ready != null) {
                ready.trySuccess(connection);
            }
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf frame = (ByteBuf) msg;
            Serializable message;
            try {
                byte type = frame.readByte();
                if (type != MESSAGE) {
                    reject(ctx, "sent a frame of " + Protocol.typeName(type) + " on the control plane");
                    return;
                }
                try (ObjectInputStream in = new ObjectInputStream(new ByteBufInputStream(frame))) {
                    in.setObjectInputFilter(FILTER);
                    message = (Serializable) in.readObject();
                }
            } catch (InvalidClassException e) {
                reject(ctx, "sent a message of a class the control plane does not accept (" + e.getMessage() + ")");
                return;
            } catch (IOException | ClassNotFoundException | ClassCastException | IndexOutOfBoundsException e) {
                reject(ctx, "sent a message that cannot be decoded (" + e + ")");
                return;
            } finally {
                frame.release();
            }
            try {
                handler.onMessage(connection, message);
            } catch (RuntimeException e) {
                LOG.error("Handling {} from {} failed", message.getClass().getSimpleName(), connection, e);
            }
        }

        private void reject(ChannelHandlerContext ctx, String reason) {
            failure = new IOException("Control connection " + ctx.channel().remoteAddress() + " (" + peer
                    + ") closed: it " + reason);
            LOG.warn(failure.getMessage());
            ctx.close();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (failure == null) {
                failure = cause;
                LOG.warn("Control connection {} ({}) failed: {}", ctx.channel().remoteAddress(), peer, cause.toString());
            }
            ctx.close();
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            handler.onDisconnected(connection, failure);
        }
    }
}
