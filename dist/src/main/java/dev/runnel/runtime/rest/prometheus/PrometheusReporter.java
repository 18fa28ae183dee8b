package dev.runnel.runtime.rest.prometheus;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.metrics.MetricGroup;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A process's metrics for Prometheus to scrape, as Flink's PrometheusReporter serves them: {@code GET /metrics}
 * in the text format 0.0.4, on its own small HTTP server. The port comes from {@code metrics.reporter.prom.port}
 * (Flink's key): one port, a range {@code 9249-9260} or a list {@code 9249,9251-9253}; the first free one is
 * taken ({@link #port()} tells which). The address is Runnel's {@code metrics.reporter.prom.host}, loopback by
 * default. The text comes from a {@link Supplier} called once per scrape on the server's thread (build it with
 * {@link PrometheusText}); it must be thread-safe. Lifecycle: {@link #start} once, {@link #close()}.
 */
public final class PrometheusReporter implements AutoCloseable {

    public static final ConfigOption<String> PORT = ConfigOption.stringOption("metrics.reporter.prom.port", "9249",
            "The port (or a range like 9249-9260: the first free one) of the Prometheus endpoint.");

    public static final ConfigOption<String> HOST = ConfigOption.stringOption("metrics.reporter.prom.host",
            "127.0.0.1", "The address the Prometheus endpoint binds to.");

    /** Prometheus' text exposition format. */
    public static final String CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

    private static final Logger LOG = LoggerFactory.getLogger(PrometheusReporter.class);

    private final Supplier<String> metrics;
    private EventLoopGroup group;
    private Channel channel;

    private PrometheusReporter(Supplier<String> metrics) {
        this.metrics = metrics;
    }

    /** Starts serving on the first free port of {@link #PORT}; fails if none of them is free. */
    public static PrometheusReporter start(Configuration config, Supplier<String> metrics) throws InterruptedException {
        PrometheusReporter reporter = new PrometheusReporter(metrics);
        reporter.bind(config.get(HOST), ports(config.get(PORT)));
        return reporter;
    }

    /**
     * Starts serving every metric of {@code group} (and its children), named {@code prefix} plus the metric's
     * name relative to the group, e.g. {@code runnel_taskmanager_} plus {@code Flat_Map_0_numRecordsIn}. For
     * labelled names (job, task, subtask) build the text with {@link PrometheusText#task} instead.
     */
    public static PrometheusReporter start(Configuration config, String prefix, MetricGroup group)
            throws InterruptedException {
        return start(config, () -> new PrometheusText().group(prefix, group, Map.of()).toString());
    }

    /** The ports a {@link #PORT} value names, in order. */
    static List<Integer> ports(String spec) {
        List<Integer> ports = new ArrayList<>();
        for (String part : spec.split(",")) {
            String p = part.trim();
            try {
                int dash = p.indexOf('-');
                int from = Integer.parseInt(dash < 0 ? p : p.substring(0, dash).trim());
                int to = dash < 0 ? from : Integer.parseInt(p.substring(dash + 1).trim());
                if (from < 0 || to > 65535 || from > to) {
                    throw new NumberFormatException();
                }
                for (int port = from; port <= to; port++) {
                    ports.add(port);
                }
            } catch (NumberFormatException e) {
                throw new IllegalConfigurationException("%s: '%s' is not a port or a range of ports like 9249-9260",
                        PORT.key(), spec);
            }
        }
        return ports;
    }

    private void bind(String host, List<Integer> ports) throws InterruptedException {
        group = new MultiThreadIoEventLoopGroup(1, new DefaultThreadFactory("runnel-prometheus", true),
                NioIoHandler.newFactory());
        ServerBootstrap bootstrap = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new HttpServerCodec(), new HttpObjectAggregator(64 * 1024),
                                new MetricsHandler());
                    }
                });
        Exception last = null;
        for (int port : ports) {
            try {
                channel = bootstrap.bind(host, port).sync().channel();
                LOG.info("Prometheus metrics at http://{}:{}/metrics", host, port());
                return;
            } catch (Exception e) {
                last = e;
            }
        }
        close();
        throw new IllegalConfigurationException(String.format("no port of %s is free on %s (%s)", ports.size() == 1
                ? ports.get(0) : ports.get(0) + "-" + ports.get(ports.size() - 1), host, PORT.key()), last);
    }

    public int port() {
        return ((InetSocketAddress) channel.localAddress()).getPort();
    }

    @Override
    public synchronized void close() {
        if (channel != null) {
            channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            channel = null;
        }
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            group = null;
        }
    }

    @ChannelHandler.Sharable
    private final class MetricsHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

        @Override
        protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
            String path = new QueryStringDecoder(request.uri()).path();
            FullHttpResponse response;
            if (!path.equals("/metrics") && !path.equals("/")) {
                response = text(HttpResponseStatus.NOT_FOUND, "Not found: " + path + " (the metrics are at /metrics)\n");
            } else if (!request.method().equals(HttpMethod.GET)) {
                response = text(HttpResponseStatus.METHOD_NOT_ALLOWED, "only GET\n");
            } else {
                String body;
                try {
                    body = metrics.get();
                } catch (RuntimeException e) {
                    LOG.warn("Reading the metrics for Prometheus failed", e);
                    body = null;
                }
                response = body == null ? text(HttpResponseStatus.INTERNAL_SERVER_ERROR, "reading the metrics failed\n")
                        : text(HttpResponseStatus.OK, body);
            }
            boolean keepAlive = HttpUtil.isKeepAlive(request);
            response.headers().set(HttpHeaderNames.CONNECTION,
                    keepAlive ? HttpHeaderValues.KEEP_ALIVE : HttpHeaderValues.CLOSE);
            var written = ctx.writeAndFlush(response);
            if (!keepAlive) {
                written.addListener(ChannelFutureListener.CLOSE);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }

        private FullHttpResponse text(HttpResponseStatus status, String body) {
            byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status,
                    Unpooled.wrappedBuffer(bytes));
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, CONTENT_TYPE)
                    .setInt(HttpHeaderNames.CONTENT_LENGTH, bytes.length);
            return response;
        }
    }
}
