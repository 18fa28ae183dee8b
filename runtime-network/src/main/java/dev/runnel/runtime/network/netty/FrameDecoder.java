package dev.runnel.runtime.network.netty;

import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Netty's length-field decoder for the protocol's frames, which also tells when a peer closed the
 * connection in the middle of a frame (one log line naming the peer), instead of dropping the bytes silently.
 */
final class FrameDecoder extends LengthFieldBasedFrameDecoder {

    private static final Logger LOG = LoggerFactory.getLogger(FrameDecoder.class);

    private final String side;

    FrameDecoder(int maxFrameLength, String side) {
        super(maxFrameLength, 0, 4, 0, 4, true);
        this.side = side;
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        int leftover = actualReadableBytes();
        if (leftover > 0) {
            var pending = internalBuffer();
            String of = leftover >= 4 ? " of " + (4L + pending.getUnsignedInt(pending.readerIndex())) : "";
            LOG.warn("{}: connection {} closed in the middle of a frame ({}{} bytes arrived)", side,
                    ctx.channel().remoteAddress(), leftover, of);
        }
        super.channelInactive(ctx);
    }
}
