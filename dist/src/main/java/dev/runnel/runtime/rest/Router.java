package dev.runnel.runtime.rest;

import io.netty.handler.codec.http.HttpMethod;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;

/**
 * Matches a method and path against route templates such as {@code /jobs/:jobid/vertices/:vertexid/backpressure}
 * (a {@code :name} segment matches any one segment and is handed to the handler). A literal segment wins over a
 * parameter ({@code /jobs/overview} over {@code /jobs/:jobid}), for the handler and for the allowed methods. A
 * path no template matches is a 404; a path some template matches with another method is a 405. Routes are added before the server starts; matching is then
 * read-only and thread-safe.
 */
public final class Router {

    /** Answers one routed request; may complete on any thread. */
    @FunctionalInterface
    public interface Handler {
        CompletableFuture<RestResponse> handle(RestRequest request);
    }

    private record Route(HttpMethod method, String[] segments, Handler handler) {}

    /** The outcome of matching: a handler with its path parameters, or why none matched. */
    public record Match(Handler handler, Map<String, String> pathParams, Set<String> allowedMethods) {
        public boolean found() {
            return handler != null;
        }
    }

    private final List<Route> routes = new ArrayList<>();

    public Router add(HttpMethod method, String template, Handler handler) {
        routes.add(new Route(method, split(template), handler));
        return this;
    }

    public Match match(HttpMethod method, String path) {
        String[] segments = split(path);
        // the most specific templates matching the path name the resource; their methods are the allowed ones
        int bestLiterals = -1;
        Match best = null;
        Set<String> allowed = new TreeSet<>();
        for (Route route : routes) {
            Map<String, String> params = matchSegments(route.segments, segments);
            if (params == null) {
                continue;
            }
            int literals = route.segments.length - params.size();
            if (literals > bestLiterals) {
                bestLiterals = literals;
                allowed = new TreeSet<>();
                best = null;
            }
            if (literals == bestLiterals) {
                allowed.add(route.method.name());
                if (route.method.equals(method)) {
                    best = new Match(route.handler, params, allowed);
                }
            }
        }
        return best != null ? new Match(best.handler(), best.pathParams(), allowed)
                : new Match(null, Map.of(), allowed);
    }

    private static Map<String, String> matchSegments(String[] template, String[] path) {
        if (template.length != path.length) {
            return null;
        }
        Map<String, String> params = new LinkedHashMap<>();
        for (int i = 0; i < template.length; i++) {
            if (template[i].startsWith(":")) {
                params.put(template[i].substring(1), path[i]);
            } else if (!template[i].equals(path[i])) {
                return null;
            }
        }
        return params;
    }

    private static String[] split(String path) {
        String trimmed = path.startsWith("/") ? path.substring(1) : path;
        if (trimmed.endsWith("/")) {
            trimmed = trimmed.substring(0, trimmed.length() - 1);
        }
        return trimmed.isEmpty() ? new String[0] : trimmed.split("/", -1);
    }
}
