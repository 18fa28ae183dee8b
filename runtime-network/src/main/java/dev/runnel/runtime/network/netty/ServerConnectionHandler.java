package dev.runnel.runtime.network.netty;

import dev.runnel.runtime.network.netty.OutboundSubpartition.Outbound;
import dev.runnel.runtime.network.netty.Protocol.ProtocolException;
import dev.runnel.runtime.shuffle.ChannelId;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The producing side of one authenticated connection from a consumer TaskManager: takes its partition
 * requests and credits, and writes each requested channel's buffers while the consumer has granted credit
 * for them (events need none; priority events go before every queued buffer), announcing how many more
 * wait (the backlog). Event loop only, except
 * {@link #notifyDataAvailable}.
 */
final class ServerConnectionHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ServerConnectionHandler.class);

    private final NettyShuffleEnvironment environment;
    private final String remoteTaskManager;
    private final Map<Integer, OutboundSubpartition> byReceiverId = new HashMap<>();
    private final ArrayDeque<OutboundSubpartition> ready = new ArrayDeque<>();
    private ChannelHandlerContext ctx;

    ServerConnectionHandler(NettyShuffleEnvironment environment, String remoteTaskManager) {
        this.environment = environment;
        this.remoteTaskManager = remoteTaskManager;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf frame = (ByteBuf) msg;
        try {
            byte type = frame.readByte();
            switch (type) {
                case Protocol.PARTITION_REQUEST -> onPartitionRequest(frame);
                case Protocol.ADD_CREDIT -> onAddCredit(frame.readInt(), frame.readInt());
                case Protocol.CANCEL -> onCancel(frame.readInt());
                default -> throw new ProtocolException("sent a " + Protocol.typeName(type) + " frame, which a consumer never sends");
            }
        } finally {
            frame.release();
        }
    }

    private void onPartitionRequest(ByteBuf frame) {
        int receiverId = frame.readInt();
        String edge = Protocol.readString(frame);
        int producer = frame.readInt();
        int consumer = frame.readInt();
        int credit = frame.readInt();
        ChannelId id = new ChannelId(edge, producer, consumer);
        if (byReceiverId.containsKey(receiverId) || credit < 0) {
            throw new ProtocolException("requested channel " + id + " under receiver id " + receiverId
                    + (credit < 0 ? " with negative credit " + credit : ", which is already in use"));
        }
        OutboundSubpartition subpartition = environment.outbound(id);
        if (subpartition.hasReader()) {
            throw new ProtocolException("requested channel " + id + ", which another consumer already reads");
        }
        subpartition.attachReader(this, receiverId, credit);
        byReceiverId.put(receiverId, subpartition);
        enqueueIfSendable(subpartition);
        writeWhatIsSendable();
    }

    private void onAddCredit(int receiverId, int credit) {
        OutboundSubpartition subpartition = byReceiverId.get(receiverId);
        if (subpartition == null) {
            return; // released in the meantime: credit for a channel that ended
        }
        if (credit <= 0) {
            throw new ProtocolException("announced credit " + credit + " for channel " + subpartition.id);
        }
        subpartition.credit += credit;
        subpartition.backlogAnnounced = false;
        enqueueIfSendable(subpartition);
        writeWhatIsSendable();
    }

    private void onCancel(int receiverId) {
        OutboundSubpartition subpartition = byReceiverId.remove(receiverId);
        if (subpartition != null) {
            subpartition.fail("the consumer of channel " + subpartition.id + " on TaskManager " + remoteTaskManager
                    + " cancelled it");
            environment.forget(subpartition);
        }
    }

    /** Runs {@code action} on this connection's event loop (now, when called there). */
    void runOnEventLoop(Runnable action) {
        if (ctx.executor().inEventLoop() || ctx.executor().isShuttingDown()) {
            action.run(); // on the loop, or the loop is gone and nothing else takes from the queue
            return;
        }
        try {
            ctx.executor().execute(action);
        } catch (java.util.concurrent.RejectedExecutionException shutDown) {
            action.run();
        }
    }

    /** From the producer's thread: the subpartition has something new. */
    void notifyDataAvailable(OutboundSubpartition subpartition) {
        if (subpartition.signalled.compareAndSet(false, true)) {
            ctx.executor().execute(() -> {
                subpartition.signalled.set(false);
                enqueueIfSendable(subpartition);
                writeWhatIsSendable();
            });
        }
    }

    private void enqueueIfSendable(OutboundSubpartition subpartition) {
        if (subpartition.inReadyQueue || subpartition.isReleased()) {
            return;
        }
        if (subpartition.isSendable()) {
            subpartition.inReadyQueue = true;
            ready.add(subpartition);
        } else if (subpartition.credit == 0 && subpartition.queuedBuffers() > 0 && !subpartition.backlogAnnounced) {
            // Buffers wait and the consumer cannot know: tell it, so it can lend floating buffers (as Flink's
            // backlog announcement). The buffers that carried the backlog may have left before it grew.
            subpartition.backlogAnnounced = true;
            ByteBuf frame = Protocol.start(ctx.alloc(), Protocol.BACKLOG, 8);
            frame.writeInt(subpartition.receiverId);
            frame.writeInt(subpartition.queuedBuffers());
            ctx.writeAndFlush(Protocol.finish(frame));
        }
    }

    private void writeWhatIsSendable() {
        boolean wrote = false;
        OutboundSubpartition subpartition;
        while (ctx.channel().isWritable() && (subpartition = ready.poll()) != null) {
            subpartition.inReadyQueue = false;
            if (!subpartition.isReleased() && subpartition.isSendable()) {
                write(subpartition, subpartition.take());
                wrote = true;
            }
            enqueueIfSendable(subpartition);
        }
        if (wrote) {
            ctx.flush();
        }
    }

    private void write(OutboundSubpartition subpartition, Outbound element) {
        ByteBuf bytes = element.bytes();
        if (element.event()) {
            ByteBuf header = ctx.alloc().buffer(9);
            header.writeInt(1 + 4 + bytes.readableBytes());
            header.writeByte(element.priority() ? Protocol.PRIORITY_EVENT : Protocol.EVENT);
            header.writeInt(subpartition.receiverId);
            ctx.write(header);
            ctx.write(bytes);
            if (element.endOfPartition()) {
                byReceiverId.remove(subpartition.receiverId);
                environment.forget(subpartition);
            }
            return;
        }
        ByteBuf header = ctx.alloc().buffer(Protocol.BUFFER_FRAME_OVERHEAD);
        header.writeInt(Protocol.BUFFER_FRAME_OVERHEAD - 4 + bytes.readableBytes());
        header.writeByte(Protocol.BUFFER);
        header.writeInt(subpartition.receiverId);
        header.writeInt(subpartition.queuedBuffers());
        ctx.write(header);
        // The pooled buffer stays ours: Netty releases the extra reference once written, and we recycle it then.
        ctx.write(bytes.retain()).addListener(done -> subpartition.recycle(bytes));
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        if (ctx.channel().isWritable()) {
            writeWhatIsSendable();
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        for (OutboundSubpartition subpartition : byReceiverId.values()) {
            subpartition.fail("the connection to consumer TaskManager " + remoteTaskManager + " ("
                    + ctx.channel().remoteAddress() + ") was lost while channel " + subpartition.id + " was open");
            environment.forget(subpartition);
        }
        byReceiverId.clear();
        ready.clear();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.warn("Data server: closing the connection from TaskManager {} ({}): {}", remoteTaskManager,
                ctx.channel().remoteAddress(), NettyShuffleEnvironment.describe(cause));
        ctx.close();
    }
}
