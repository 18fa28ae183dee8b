package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.SecurityOptions;
import dev.runnel.runtime.network.netty.Protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.concurrent.Promise;
import io.netty.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The first frames of every data connection: version check and mutual authentication from the cluster
 * secret (see {@link Authenticator}). Until it succeeds no other message is accepted; a peer that fails it,
 * speaks another version or says anything else is disconnected with one log line naming its address and the
 * reason. On success the handler replaces itself with the connection's data handler. Event loop only.
 */
final class HandshakeHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(HandshakeHandler.class);

    private enum State { CLIENT_SENT_HELLO, SERVER_AWAITING_HELLO, SERVER_SENT_CHALLENGE, DONE }

    private final Authenticator authenticator;
    private final String localTaskManager;
    private final long timeoutMillis;
    /** Builds the data handler once the peer (by its TaskManager id) is authenticated. */
    private final Function<String, ChannelHandler> next;
    /** Client side only: completed with the server's TaskManager id, or failed with the reason. */
    private final Promise<String> clientResult;
    private final byte[] ownNonce = Authenticator.nonce();
    /** The data plane's {@link Protocol#MAGIC} or the control plane's {@link RpcService#MAGIC}: a peer of the other plane fails the handshake. */
    private final int magic;
    /** "Data" or "Control", for log lines. */
    private final String kind;
    private State state;
    private byte[] clientNonce;
    private String peer = "an unauthenticated peer";
    private ScheduledFuture<?> timeout;

    private HandshakeHandler(Authenticator authenticator, String localTaskManager, long timeoutMillis,
            Function<String, ChannelHandler> next, Promise<String> clientResult, State state, int magic, String kind) {
        this.magic = magic;
        this.kind = kind;
        this.authenticator = authenticator;
        this.localTaskManager = localTaskManager;
        this.timeoutMillis = timeoutMillis;
        this.next = next;
        this.clientResult = clientResult;
        this.state = state;
    }

    static HandshakeHandler server(Authenticator authenticator, String localTaskManager, long timeoutMillis,
            Function<String, ChannelHandler> next) {
        return new HandshakeHandler(authenticator, localTaskManager, timeoutMillis, next, null,
                State.SERVER_AWAITING_HELLO, Protocol.MAGIC, "Data");
    }

    /** The server side of a control-plane connection (see {@link RpcService}). */
    static HandshakeHandler controlServer(Authenticator authenticator, String localId, long timeoutMillis,
            Function<String, ChannelHandler> next) {
        return new HandshakeHandler(authenticator, localId, timeoutMillis, next, null,
                State.SERVER_AWAITING_HELLO, RpcService.MAGIC, "Control");
    }

    /** The client side of a control-plane connection (see {@link RpcService}). */
    static HandshakeHandler controlClient(Authenticator authenticator, String localId, long timeoutMillis,
            Function<String, ChannelHandler> next, Promise<String> result) {
        return new HandshakeHandler(authenticator, localId, timeoutMillis, next, result,
                State.CLIENT_SENT_HELLO, RpcService.MAGIC, "Control");
    }

    static HandshakeHandler client(Authenticator authenticator, String localTaskManager, long timeoutMillis,
            Function<String, ChannelHandler> next, Promise<String> result) {
        return new HandshakeHandler(authenticator, localTaskManager, timeoutMillis, next, result,
                State.CLIENT_SENT_HELLO, Protocol.MAGIC, "Data");
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        timeout = ctx.executor().schedule(() -> reject(ctx, "did not complete the handshake within "
                + timeoutMillis + " ms"), timeoutMillis, TimeUnit.MILLISECONDS);
        if (state == State.CLIENT_SENT_HELLO) {
            clientNonce = ownNonce;
            ByteBuf hello = Protocol.start(ctx.alloc(), Protocol.HELLO, 64);
            hello.writeInt(magic);
            hello.writeInt(Protocol.VERSION);
            Protocol.writeString(hello, localTaskManager);
            hello.writeBytes(ownNonce);
            ctx.writeAndFlush(Protocol.finish(hello));
        }
        ctx.fireChannelActive();
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            byte type = frame.readByte();
            switch (state) {
                case SERVER_AWAITING_HELLO -> onHello(ctx, type, frame);
                case SERVER_SENT_CHALLENGE -> onResponse(ctx, type, frame);
                case CLIENT_SENT_HELLO -> onChallengeOrOk(ctx, type, frame);
                case DONE -> ctx.fireChannelRead(frame.retain());
            }
        } catch (ProtocolException | IndexOutOfBoundsException e) {
            reject(ctx, e instanceof ProtocolException ? e.getMessage() : "sent a truncated handshake frame");
        } finally {
            frame.release();
        }
    }

    private void onHello(ChannelHandlerContext ctx, byte type, ByteBuf frame) {
        expect(type, Protocol.HELLO);
        int magic = frame.readInt();
        if (magic != this.magic) {
            throw new ProtocolException(magic == Protocol.MAGIC || magic == RpcService.MAGIC
                    ? "speaks the other plane's protocol (a data connection to a control port, or the reverse)"
                    : "is not a Runnel process (it sent " + Integer.toHexString(magic)
                            + " where the protocol's magic number belongs)");
        }
        checkVersion(frame.readInt());
        peer = "TaskManager '" + Protocol.readString(frame) + "'";
        clientNonce = readBytes(frame, Protocol.NONCE_BYTES);
        ByteBuf challenge = Protocol.start(ctx.alloc(), Protocol.CHALLENGE, 96);
        challenge.writeInt(Protocol.VERSION);
        Protocol.writeString(challenge, localTaskManager);
        challenge.writeBytes(ownNonce);
        challenge.writeBytes(authenticator.serverProof(clientNonce, ownNonce));
        ctx.writeAndFlush(Protocol.finish(challenge));
        state = State.SERVER_SENT_CHALLENGE;
    }

    private void onResponse(ChannelHandlerContext ctx, byte type, ByteBuf frame) {
        expect(type, Protocol.RESPONSE);
        byte[] proof = readBytes(frame, Protocol.MAC_BYTES);
        if (!Authenticator.matches(authenticator.clientProof(clientNonce, ownNonce), proof)) {
            throw new ProtocolException("failed authentication: its proof does not match the cluster secret ("
                    + SecurityOptions.CLUSTER_SECRET.key() + " differs)");
        }
        ctx.writeAndFlush(Protocol.finish(Protocol.start(ctx.alloc(), Protocol.AUTH_OK, 0)));
        complete(ctx, peer.substring("TaskManager '".length(), peer.length() - 1));
    }

    private void onChallengeOrOk(ChannelHandlerContext ctx, byte type, ByteBuf frame) {
        if (type == Protocol.AUTH_OK && clientNonce == null) {
            String server = peer;
            complete(ctx, server);
            clientResult.trySuccess(server);
            return;
        }
        expect(type, Protocol.CHALLENGE);
        checkVersion(frame.readInt());
        String server = Protocol.readString(frame);
        peer = "TaskManager '" + server + "'";
        byte[] serverNonce = readBytes(frame, Protocol.NONCE_BYTES);
        byte[] proof = readBytes(frame, Protocol.MAC_BYTES);
        if (!Authenticator.matches(authenticator.serverProof(clientNonce, serverNonce), proof)) {
            throw new ProtocolException("failed authentication: its proof does not match the cluster secret ("
                    + SecurityOptions.CLUSTER_SECRET.key() + " differs)");
        }
        ByteBuf response = Protocol.start(ctx.alloc(), Protocol.RESPONSE, Protocol.MAC_BYTES);
        response.writeBytes(authenticator.clientProof(clientNonce, serverNonce));
        ctx.writeAndFlush(Protocol.finish(response));
        clientNonce = null; // the next frame must be AUTH_OK
        peer = server;
    }

    private void complete(ChannelHandlerContext ctx, String remoteTaskManager) {
        state = State.DONE;
        timeout.cancel(false);
        ctx.pipeline().replace(this, "data", next.apply(remoteTaskManager));
    }

    private void expect(byte type, byte expected) {
        if (type != expected) {
            throw new ProtocolException("sent " + Protocol.typeName(type) + " where the handshake expects "
                    + Protocol.typeName(expected));
        }
    }

    private static void checkVersion(int version) {
        if (version != Protocol.VERSION) {
            throw new ProtocolException("speaks protocol version " + version + ", this TaskManager speaks version "
                    + Protocol.VERSION + "; run the same Runnel version on every TaskManager");
        }
    }

    private static byte[] readBytes(ByteBuf frame, int count) {
        if (frame.readableBytes() < count) {
            throw new ProtocolException("sent a truncated handshake frame");
        }
        byte[] bytes = new byte[count];
        frame.readBytes(bytes);
        return bytes;
    }

    private void reject(ChannelHandlerContext ctx, String reason) {
        if (state == State.DONE) {
            return;
        }
        state = State.DONE;
        String message = kind + " connection " + ctx.channel().remoteAddress() + " (" + peer + ") rejected: it " + reason;
        LOG.warn(message);
        if (clientResult != null) {
            clientResult.tryFailure(new ChannelFailedException(message));
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (timeout != null) {
            timeout.cancel(false);
        }
        if (state != State.DONE && clientResult != null) {
            clientResult.tryFailure(new ChannelFailedException("The data server at " + ctx.channel().remoteAddress()
                    + " closed the connection during the handshake (a different cluster secret or version?)"));
        }
        ctx.fireChannelInactive();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        reject(ctx, "broke the protocol: " + NettyShuffleEnvironment.describe(cause));
    }
}
