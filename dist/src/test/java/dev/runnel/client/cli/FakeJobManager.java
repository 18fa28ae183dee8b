package dev.runnel.client.cli;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

/**
 * A stand-in for the JobManager's REST server in tests: answers each {@code "METHOD /path"} (query excluded)
 * with what its handler returns, 404 with Flink's error body otherwise, and records every request.
 */
final class FakeJobManager implements AutoCloseable {

    /** One request as it arrived. */
    record Request(String method, String path, String query, Map<String, List<String>> headers, byte[] body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name))
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }

        String bodyText() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }

    /** What a handler answers. */
    record Response(int status, String json) {}

    private final HttpServer server;
    private final Map<String, Function<Request, Response>> routes = new ConcurrentHashMap<>();
    final List<Request> requests = new CopyOnWriteArrayList<>();

    FakeJobManager() throws IOException {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
    }

    int port() {
        return server.getAddress().getPort();
    }

    String hostPort() {
        return "127.0.0.1:" + port();
    }

    FakeJobManager on(String methodAndPath, Function<Request, Response> handler) {
        routes.put(methodAndPath, handler);
        return this;
    }

    FakeJobManager on(String methodAndPath, int status, String json) {
        return on(methodAndPath, request -> new Response(status, json));
    }

    Request only(String method, String path) {
        List<Request> matching = requests.stream().filter(r -> r.method().equals(method) && r.path().equals(path))
                .toList();
        if (matching.size() != 1) {
            throw new AssertionError("expected one " + method + " " + path + ", got " + matching.size() + " of "
                    + requests.stream().map(r -> r.method() + " " + r.path()).toList());
        }
        return matching.get(0);
    }

    private void handle(HttpExchange exchange) throws IOException {
        Request request = new Request(exchange.getRequestMethod(), exchange.getRequestURI().getPath(),
                exchange.getRequestURI().getRawQuery(), Map.copyOf(exchange.getRequestHeaders()),
                exchange.getRequestBody().readAllBytes());
        requests.add(request);
        Function<Request, Response> handler = routes.get(request.method() + " " + request.path());
        Response response = handler != null ? handler.apply(request)
                : new Response(404, "{\"errors\":[\"Not found: " + request.path() + "\"]}");
        byte[] body = response.json().getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(response.status(), body.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
        }
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
