package dev.runnel.runtime.network.netty;

import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.runtime.io.ChannelEventCodec;
import dev.runnel.runtime.network.netty.Protocol.ProtocolException;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * This TaskManager's one authenticated connection to another TaskManager's data server: every channel this
 * side reads from that TaskManager is multiplexed over it under a receiver id. Partition requests and credit
 * go out; buffers and events for the channels come in. Thread-safe: tasks register and announce credit from
 * their threads; everything that touches the socket runs on the connection's event loop.
 */
final class ClientConnection {

    private static final Logger LOG = LoggerFactory.getLogger(ClientConnection.class);

    private final String remoteTaskManager;
    private final Map<Integer, RemoteInputChannel> channels = new ConcurrentHashMap<>();
    private final AtomicInteger nextReceiverId = new AtomicInteger();
    private final Runnable onLost;
    private volatile Channel channel;
    private volatile String lostReason;

    ClientConnection(String remoteTaskManager, Runnable onLost) {
        this.remoteTaskManager = remoteTaskManager;
        this.onLost = onLost;
    }

    /** Called once the handshake succeeded on {@code channel}. */
    void connected(Channel channel) {
        this.channel = channel;
    }

    /** The handler for the connection's data frames, installed by the handshake. */
    ChannelInboundHandlerAdapter handler() {
        return new Handler();
    }

    boolean isUsable() {
        return lostReason == null && channel != null && channel.isActive();
    }

    /** A receiver id no other channel of this connection has. */
    int newReceiverId() {
        return nextReceiverId.getAndIncrement();
    }

    /**
     * Registers {@code input} under {@code receiverId} and requests its channel with {@code credit}. The
     * channel must know its id before this call: the map's publication is what makes the id visible to the
     * event loop, which announces credit under it.
     */
    void register(RemoteInputChannel input, int receiverId, int credit) {
        channels.put(receiverId, input);
        String lost = lostReason;
        if (lost != null) {
            input.fail(lost);
            return;
        }
        var id = input.id();
        onEventLoop(() -> {
            ByteBuf request = Protocol.start(channel.alloc(), Protocol.PARTITION_REQUEST, 64);
            request.writeInt(receiverId);
            Protocol.writeString(request, id.edgeId());
            request.writeInt(id.producerSubtask());
            request.writeInt(id.consumerSubtask());
            request.writeInt(credit);
            channel.writeAndFlush(Protocol.finish(request));
        });
    }

    /** Event loop: grants the producer {@code credit} more buffers for channel {@code receiverId}. */
    void announceCredit(int receiverId, int credit) {
        ByteBuf frame = Protocol.start(channel.alloc(), Protocol.ADD_CREDIT, 8);
        frame.writeInt(receiverId);
        frame.writeInt(credit);
        channel.writeAndFlush(Protocol.finish(frame));
    }

    /** Consumer thread: sends the credit {@code input} freed, on the event loop, batched with later frees. */
    void flushCredit(RemoteInputChannel input) {
        onEventLoop(() -> {
            int credit = input.takeUnannouncedCredit();
            if (credit > 0 && channels.containsKey(input.receiverId())) {
                announceCredit(input.receiverId(), credit);
            }
        });
    }

    /** The channel is done; unless it ended normally the producer is told to stop sending. */
    void unregister(RemoteInputChannel input, boolean cancel) {
        channels.remove(input.receiverId());
        if (cancel && isUsable()) {
            int receiverId = input.receiverId();
            onEventLoop(() -> {
                ByteBuf frame = Protocol.start(channel.alloc(), Protocol.CANCEL, 4);
                frame.writeInt(receiverId);
                channel.writeAndFlush(Protocol.finish(frame));
            });
        }
    }

    /** Runs {@code action} on the connection's event loop (now, if the connection is gone). */
    void onEventLoop(Runnable action) {
        Channel c = channel;
        if (c == null || !c.isActive() || c.eventLoop().isShuttingDown()) {
            action.run();
        } else {
            c.eventLoop().execute(action);
        }
    }

    void close() {
        Channel c = channel;
        if (c != null) {
            c.close().syncUninterruptibly();
        }
    }

    private void lost(String reason) {
        lostReason = reason;
        for (RemoteInputChannel input : channels.values()) {
            input.fail(reason + " while channel " + input.id() + " was open");
        }
        onLost.run();
    }

    /** Data frames from the producer's side. Event loop only. */
    private final class Handler extends ChannelInboundHandlerAdapter {

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) throws IOException {
            ByteBuf frame = (ByteBuf) msg;
            try {
                byte type = frame.readByte();
                switch (type) {
                    case Protocol.BUFFER -> {
                        RemoteInputChannel input = channels.get(frame.readInt());
                        int backlog = frame.readInt();
                        if (input != null) {
                            input.onBuffer(frame, backlog);
                        }
                    }
                    case Protocol.BACKLOG -> {
                        RemoteInputChannel input = channels.get(frame.readInt());
                        int backlog = frame.readInt();
                        if (input != null) {
                            input.onBacklog(backlog);
                        }
                    }
                    case Protocol.EVENT -> {
                        RemoteInputChannel input = channels.get(frame.readInt());
                        if (input != null) {
                            input.onEvent(ChannelEventCodec.read(new DataInputDeserializer(ByteBufUtil.getBytes(frame))));
                        }
                    }
                    case Protocol.PRIORITY_EVENT -> {
                        RemoteInputChannel input = channels.get(frame.readInt());
                        if (input != null) {
                            input.onPriorityEvent(
                                    ChannelEventCodec.read(new DataInputDeserializer(ByteBufUtil.getBytes(frame))));
                        }
                    }
                    case Protocol.ERROR -> {
                        int receiverId = frame.readInt();
                        String message = Protocol.readString(frame);
                        RemoteInputChannel input = channels.get(receiverId);
                        if (input != null) {
                            input.fail("TaskManager " + remoteTaskManager + " reported: " + message);
                        }
                    }
                    default -> throw new ProtocolException("sent a " + Protocol.typeName(type)
                            + " frame, which a producer never sends");
                }
            } finally {
                frame.release();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            lost("the connection to TaskManager " + remoteTaskManager + " (" + ctx.channel().remoteAddress()
                    + ") was lost");
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            LOG.warn("Data client: closing the connection to TaskManager {} ({}): {}", remoteTaskManager,
                    ctx.channel().remoteAddress(), NettyShuffleEnvironment.describe(cause));
            lost("the connection to TaskManager " + remoteTaskManager + " (" + ctx.channel().remoteAddress()
                    + ") failed: " + NettyShuffleEnvironment.describe(cause));
            ctx.close();
        }
    }
}
