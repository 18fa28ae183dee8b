package dev.runnel.runtime.rest;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.configuration.RestOptions;
import dev.runnel.runtime.dispatcher.DispatcherGateway;
import dev.runnel.runtime.rest.handler.AsyncOperationHandlers;
import dev.runnel.runtime.rest.handler.ClusterHandlers;
import dev.runnel.runtime.rest.handler.JobHandlers;
import dev.runnel.runtime.rest.handler.JobStatisticsHandlers;
import dev.runnel.runtime.rest.handler.JobSubmitHandler;
import dev.runnel.runtime.rest.handler.StaticFileHandler;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelPipeline;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpServerCodec;
import io.netty.handler.ssl.SslContext;
import io.netty.util.concurrent.DefaultThreadFactory;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobManager's HTTP face: Flink's REST API over a {@link DispatcherGateway}, and the dashboard at {@code /}.
 *
 * <pre>
 *   [TLS] → HttpServerCodec → aggregator (rest.server.max-content-length; 413 beyond) → RestServerHandler
 *                                                                   token (401) → Router → handler → JSON
 * </pre>
 *
 * <p>Binds {@code rest.bind-address} (default loopback) and {@code rest.port} (default 8081; 0 = any free port,
 * see {@link #port()}). Binding beyond loopback requires {@code rest.auth.token} or {@code
 * security.ssl.rest.enabled}, and {@link #start()} refuses otherwise; a configured token is required on
 * loopback too. Lifecycle: construct, {@link #start()} once, {@link #close()} (idempotent). Event-loop threads
 * call the gateway; its methods must return quickly.
 */
public final class RestServerEndpoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RestServerEndpoint.class);

    private final Configuration config;
    private final DispatcherGateway gateway;
    private final Path uploadDir;
    private EventLoopGroup group;
    private Channel serverChannel;
    private boolean tls;

    /** {@code uploadDir}: where submitted jars are stored (created if missing). */
    public RestServerEndpoint(Configuration config, DispatcherGateway gateway, Path uploadDir) {
        this.config = config;
        this.gateway = gateway;
        this.uploadDir = uploadDir;
    }

    /** Binds and starts serving; fails with {@link IllegalConfigurationException} on an unsafe configuration. */
    public synchronized void start() throws InterruptedException {
        if (group != null) {
            throw new IllegalStateException("the REST server is started already");
        }
        String bindAddress = config.get(RestOptions.BIND_ADDRESS);
        String token = config.get(RestOptions.AUTH_TOKEN);
        if (token != null && token.isBlank()) {
            throw new IllegalConfigurationException("%s is set but empty; set a secret token or remove the key",
                    RestOptions.AUTH_TOKEN.key());
        }
        tls = config.get(RestOptions.SSL_REST_ENABLED);
        checkExposure(bindAddress, token != null, tls);
        SslContext ssl = tls ? RestSsl.serverContext(config) : null;
        int maxContentLength = (int) Math.min(Integer.MAX_VALUE,
                config.get(RestOptions.SERVER_MAX_CONTENT_LENGTH).getBytes());
        RestServerHandler handler = new RestServerHandler(routes(), new StaticFileHandler(), token,
                config.get(RestOptions.WEB_TIMEOUT));

        group = new MultiThreadIoEventLoopGroup(2, new DefaultThreadFactory("runnel-rest", true),
                NioIoHandler.newFactory());
        try {
            serverChannel = new ServerBootstrap()
                    .group(group)
                    .channel(NioServerSocketChannel.class)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel ch) {
                            ChannelPipeline p = ch.pipeline();
                            if (ssl != null) {
                                p.addLast(ssl.newHandler(ch.alloc()));
                            }
                            p.addLast(new HttpServerCodec());
                            p.addLast(new JsonTooLongAggregator(maxContentLength));
                            p.addLast(handler);
                        }
                    })
                    .bind(bindAddress, config.get(RestOptions.PORT))
                    .sync()
                    .channel();
        } catch (RuntimeException | InterruptedException e) {
            close();
            throw e;
        }
        LOG.info("REST API and dashboard at {}", url());
    }

    /**
     * Refuses an address beyond loopback unless a token or TLS protects it. The message names the keys, so the
     * operator knows what to set.
     */
    static void checkExposure(String bindAddress, boolean hasToken, boolean tls) {
        if (hasToken || tls || isLoopback(bindAddress)) {
            return;
        }
        throw new IllegalConfigurationException("The REST server would bind to %s (%s), beyond loopback, with no"
                + " protection: set %s (clients then send 'Authorization: Bearer <token>') or enable TLS with %s,"
                + " %s and %s, or bind to 127.0.0.1", bindAddress, RestOptions.BIND_ADDRESS.key(),
                RestOptions.AUTH_TOKEN.key(), RestOptions.SSL_REST_ENABLED.key(), RestOptions.SSL_REST_KEYSTORE.key(),
                RestOptions.SSL_REST_KEYSTORE_PASSWORD.key());
    }

    private static boolean isLoopback(String address) {
        try {
            for (InetAddress a : InetAddress.getAllByName(address)) {
                if (!a.isLoopbackAddress()) {
                    return false;
                }
            }
            return true;
        } catch (UnknownHostException e) {
            throw new IllegalConfigurationException("%s '%s' is not a known host or address",
                    RestOptions.BIND_ADDRESS.key(), address);
        }
    }

    private Router routes() {
        ClusterHandlers cluster = new ClusterHandlers(gateway);
        JobHandlers jobs = new JobHandlers(gateway);
        JobStatisticsHandlers stats = new JobStatisticsHandlers(gateway);
        AsyncOperationHandlers async = new AsyncOperationHandlers(gateway);
        JobSubmitHandler submit = new JobSubmitHandler(gateway, uploadDir);
        return new Router()
                .add(HttpMethod.GET, "/overview", cluster::overview)
                .add(HttpMethod.GET, "/config", cluster::config)
                .add(HttpMethod.GET, "/taskmanagers", cluster::taskManagers)
                .add(HttpMethod.GET, "/jobs", jobs::jobIds)
                .add(HttpMethod.POST, "/jobs", submit::submit)
                .add(HttpMethod.GET, "/jobs/overview", jobs::overview)
                .add(HttpMethod.GET, "/jobs/:jobid", jobs::details)
                .add(HttpMethod.PATCH, "/jobs/:jobid", jobs::cancel)
                .add(HttpMethod.GET, "/jobs/:jobid/plan", jobs::plan)
                .add(HttpMethod.GET, "/jobs/:jobid/vertices/:vertexid", jobs::vertex)
                .add(HttpMethod.GET, "/jobs/:jobid/vertices/:vertexid/backpressure", stats::backPressure)
                .add(HttpMethod.GET, "/jobs/:jobid/checkpoints", stats::checkpoints)
                .add(HttpMethod.GET, "/jobs/:jobid/exceptions", stats::exceptions)
                .add(HttpMethod.GET, "/jobs/:jobid/execution-result", stats::executionResult)
                .add(HttpMethod.POST, "/jobs/:jobid/savepoints", async::triggerSavepoint)
                .add(HttpMethod.GET, "/jobs/:jobid/savepoints/:triggerid", async::savepointStatus)
                .add(HttpMethod.POST, "/jobs/:jobid/stop", async::stop)
                .add(HttpMethod.POST, "/jobs/:jobid/rescaling", async::rescale)
                // Flink's (since removed) rescaling trigger was a PATCH
                .add(HttpMethod.PATCH, "/jobs/:jobid/rescaling", async::rescale)
                .add(HttpMethod.GET, "/jobs/:jobid/rescaling/:triggerid", async::rescaleStatus);
    }

    /** The bound address; valid after {@link #start()}. */
    public synchronized InetSocketAddress address() {
        if (serverChannel == null) {
            throw new IllegalStateException("the REST server is not started");
        }
        return (InetSocketAddress) serverChannel.localAddress();
    }

    /** The bound port: {@code rest.port}, or the one picked when it is 0. */
    public int port() {
        return address().getPort();
    }

    /** {@code http://host:port} (https with TLS), to print and to hand to clients. */
    public String url() {
        InetSocketAddress a = address();
        String host = a.getAddress().isAnyLocalAddress() ? "localhost" : a.getAddress().getHostAddress();
        if (host.contains(":")) {
            host = "[" + host + "]";
        }
        return (tls ? "https" : "http") + "://" + host + ":" + a.getPort();
    }

    @Override
    public synchronized void close() {
        if (serverChannel != null) {
            serverChannel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            serverChannel = null;
        }
        if (group != null) {
            group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
            group = null;
        }
    }

    /** Answers an oversized body with Flink's error JSON instead of Netty's empty 413, then closes. */
    private static final class JsonTooLongAggregator extends HttpObjectAggregator {

        private final int maxContentLength;

        JsonTooLongAggregator(int maxContentLength) {
            super(maxContentLength);
            this.maxContentLength = maxContentLength;
        }

        @Override
        protected void handleOversizedMessage(ChannelHandlerContext ctx, HttpMessage oversized) {
            RestServerHandler.send(ctx, RestServerHandler.toHttp(RestResponse.error(
                    HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, String.format("the request body is larger than %d"
                            + " bytes (%s)", maxContentLength, RestOptions.SERVER_MAX_CONTENT_LENGTH.key()))), false);
        }
    }
}
