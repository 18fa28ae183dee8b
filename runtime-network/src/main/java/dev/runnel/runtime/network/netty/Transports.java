package dev.runnel.runtime.network.netty;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import java.net.InetSocketAddress;
import java.util.function.Supplier;

/**
 * The pipeline both planes (data and control) put on every connection — optional TLS, the length-prefixed
 * frame decoder, then the handshake, which replaces itself with the plane's own handler once the peer
 * authenticated — on epoll where available, with TCP_NODELAY. Stateless.
 */
final class Transports {

    private Transports() {}

    /** A server whose connections start with {@code handshake.get()}; {@code side} names it in log lines. */
    static ServerBootstrap server(EventLoopGroup eventLoop, TlsContexts.Pair tls, int maxFrame, String side,
            Supplier<ChannelHandler> handshake) {
        return new ServerBootstrap().group(eventLoop)
                .channel(Epoll.isAvailable() ? EpollServerSocketChannel.class : NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls.server() != null) {
                            ch.pipeline().addLast("tls", tls.server().newHandler(ch.alloc()));
                        }
                        ch.pipeline().addLast("frames", new FrameDecoder(maxFrame, side));
                        ch.pipeline().addLast("handshake", handshake.get());
                    }
                });
    }

    /** A client to {@code address} whose connection starts with {@code handshake.get()}. */
    static Bootstrap client(EventLoopGroup eventLoop, TlsContexts.Pair tls, InetSocketAddress address, int maxFrame,
            String side, long connectTimeoutMillis, Supplier<ChannelHandler> handshake) {
        return new Bootstrap().group(eventLoop)
                .channel(Epoll.isAvailable() ? EpollSocketChannel.class : NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, (int) connectTimeoutMillis)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        if (tls.client() != null) {
                            ch.pipeline().addLast("tls", tls.client().newHandler(ch.alloc(), address.getHostString(),
                                    address.getPort()));
                        }
                        ch.pipeline().addLast("frames", new FrameDecoder(maxFrame, side));
                        ch.pipeline().addLast("handshake", handshake.get());
                    }
                });
    }
}
