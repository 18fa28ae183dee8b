package dev.runnel.runtime.rest;

import dev.runnel.runtime.rest.handler.StaticFileHandler;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.QueryStringDecoder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The last handler of the REST pipeline: checks the access token, routes the aggregated request, runs its handler
 * and writes the answer (or Flink's error body). Order of checks: a dashboard file is served as it is; otherwise
 * a configured token must be present (401), the path must exist (404) and take the method (405), and the
 * handler's failures become 400 ({@link IllegalArgumentException}), their own status ({@link
 * RestHandlerException}), 404 ({@link java.util.NoSuchElementException}: the job went away meanwhile), 504 past
 * {@code web.timeout}, or 500. Shared by all channels; stateless apart from its immutable collaborators.
 */
@ChannelHandler.Sharable
final class RestServerHandler extends SimpleChannelInboundHandler<FullHttpRequest> {

    private static final Logger LOG = LoggerFactory.getLogger(RestServerHandler.class);
    /** Flink accepts its paths with a version prefix too. */
    private static final String VERSION_PREFIX = "/v1";
    private static final String CSP = "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:;"
            + " frame-ancestors 'none'";

    private final Router router;
    private final StaticFileHandler files;
    private final byte[] expectedAuthorization;
    private final Duration timeout;

    RestServerHandler(Router router, StaticFileHandler files, String token, Duration timeout) {
        this.router = router;
        this.files = files;
        this.timeout = timeout;
        this.expectedAuthorization = token == null ? null : ("Bearer " + token).getBytes(StandardCharsets.UTF_8);
    }

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) {
        boolean keepAlive = HttpUtil.isKeepAlive(request);
        if (!request.decoderResult().isSuccess()) {
            write(ctx, RestResponse.error(HttpResponseStatus.BAD_REQUEST, "malformed HTTP request: "
                    + request.decoderResult().cause().getMessage()), false);
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        if (path.startsWith(VERSION_PREFIX + "/")) {
            path = path.substring(VERSION_PREFIX.length());
        }
        Router.Match match = router.match(request.method(), path);
        if (!match.found() && match.allowedMethods().isEmpty() && request.method().equals(HttpMethod.GET)) {
            var file = files.file(path);
            if (file.isPresent()) {
                write(ctx, file.get(), keepAlive);
                return;
            }
        }
        if (!authorized(request)) {
            FullHttpResponse response = toHttp(RestResponse.error(HttpResponseStatus.UNAUTHORIZED,
                    "this server requires an access token: send the header 'Authorization: Bearer <token>' with"
                            + " the token configured as rest.auth.token"));
            response.headers().set(HttpHeaderNames.WWW_AUTHENTICATE, "Bearer realm=\"runnel\"");
            send(ctx, response, keepAlive);
            return;
        }
        if (!match.found()) {
            if (match.allowedMethods().isEmpty()) {
                write(ctx, RestResponse.error(HttpResponseStatus.NOT_FOUND, "Not found: " + path), keepAlive);
            } else {
                FullHttpResponse response = toHttp(RestResponse.error(HttpResponseStatus.METHOD_NOT_ALLOWED,
                        String.format("%s is not allowed on %s; allowed: %s", request.method(), path,
                                String.join(", ", match.allowedMethods()))));
                response.headers().set(HttpHeaderNames.ALLOW, String.join(", ", match.allowedMethods()));
                send(ctx, response, keepAlive);
            }
            return;
        }
        CompletableFuture<RestResponse> answer;
        try {
            answer = match.handler().handle(new RestRequest(request, match.pathParams(), uri.parameters()));
        } catch (RuntimeException e) {
            answer = CompletableFuture.failedFuture(e);
        }
        String what = request.method() + " " + path;
        answer.orTimeout(timeout.toMillis(), TimeUnit.MILLISECONDS).whenComplete((response, failure) ->
                write(ctx, failure == null ? response : errorResponse(what, failure), keepAlive));
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        LOG.debug("REST connection {} failed; closing it", ctx.channel().remoteAddress(), cause);
        ctx.close();
    }

    private boolean authorized(FullHttpRequest request) {
        if (expectedAuthorization == null) {
            return true;
        }
        String header = request.headers().get(HttpHeaderNames.AUTHORIZATION);
        // constant-time, so the comparison does not tell how much of a guess was right
        return header != null && MessageDigest.isEqual(expectedAuthorization, header.getBytes(StandardCharsets.UTF_8));
    }

    private RestResponse errorResponse(String what, Throwable failure) {
        Throwable cause = failure;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        if (cause instanceof TimeoutException) {
            return RestResponse.error(HttpResponseStatus.GATEWAY_TIMEOUT, String.format(
                    "the JobManager did not answer %s within %d ms (web.timeout)", what, timeout.toMillis()));
        }
        if (cause instanceof RestHandlerException rest) {
            return RestResponse.error(rest.status(), rest.getMessage());
        }
        if (cause instanceof java.util.NoSuchElementException) {
            // a job that went away between the handler's lookup and the gateway's action
            return RestResponse.error(HttpResponseStatus.NOT_FOUND, String.valueOf(cause.getMessage()));
        }
        if (cause instanceof IllegalArgumentException) {
            return RestResponse.error(HttpResponseStatus.BAD_REQUEST, String.valueOf(cause.getMessage()));
        }
        LOG.warn("REST request {} failed", what, cause);
        return RestResponse.error(HttpResponseStatus.INTERNAL_SERVER_ERROR,
                "Internal server error: " + cause.getClass().getName() + ": " + cause.getMessage());
    }

    static FullHttpResponse toHttp(RestResponse answer) {
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, answer.status(),
                Unpooled.wrappedBuffer(answer.body()));
        response.headers()
                .set(HttpHeaderNames.CONTENT_TYPE, answer.contentType())
                .setInt(HttpHeaderNames.CONTENT_LENGTH, answer.body().length)
                .set(HttpHeaderNames.CACHE_CONTROL, HttpHeaderValues.NO_CACHE)
                .set("X-Content-Type-Options", "nosniff");
        if (answer.contentType().startsWith("text/html")) {
            response.headers().set("Content-Security-Policy", CSP);
        }
        return response;
    }

    private static void write(ChannelHandlerContext ctx, RestResponse answer, boolean keepAlive) {
        send(ctx, toHttp(answer), keepAlive);
    }

    static void send(ChannelHandlerContext ctx, FullHttpResponse response, boolean keepAlive) {
        if (keepAlive) {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.KEEP_ALIVE);
            ctx.writeAndFlush(response);
        } else {
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
