package dev.runnel.runtime.rest;

import dev.runnel.api.common.JobID;
import dev.runnel.runtime.rest.json.JsonParser;
import io.netty.handler.codec.http.FullHttpRequest;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One routed request: the path parameters the route template named ({@code :jobid}), the query parameters, and
 * the aggregated HTTP request for its body. Valid while its handler runs on the event loop; a handler that
 * completes later must read what it needs first (the body's buffer is released once the handler returns).
 */
public final class RestRequest {

    private final FullHttpRequest http;
    private final Map<String, String> pathParams;
    private final Map<String, List<String>> queryParams;

    public RestRequest(FullHttpRequest http, Map<String, String> pathParams, Map<String, List<String>> queryParams) {
        this.http = http;
        this.pathParams = pathParams;
        this.queryParams = queryParams;
    }

    public FullHttpRequest http() {
        return http;
    }

    public String pathParam(String name) {
        String value = pathParams.get(name);
        if (value == null) {
            throw new IllegalStateException("route has no path parameter " + name);
        }
        return value;
    }

    /** The last value of query parameter {@code name}, if given. */
    public Optional<String> queryParam(String name) {
        List<String> values = queryParams.get(name);
        return values == null || values.isEmpty() ? Optional.empty() : Optional.of(values.get(values.size() - 1));
    }

    /** The {@code :jobid} path parameter as a job id; 400 if it is not 32 hex digits. */
    public JobID jobId() {
        return parseId(pathParam("jobid"), "job id");
    }

    static JobID parseId(String hex, String what) {
        if (hex.length() != 32 || !hex.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw RestHandlerException.badRequest("the %s '%s' is not 32 hexadecimal digits", what, hex);
        }
        return JobID.fromHexString(hex);
    }

    /** The body as a JSON object; an empty body is an empty object. 400 if it is not a JSON object. */
    public Map<String, Object> jsonBody() {
        String text = http.content().toString(StandardCharsets.UTF_8);
        if (text.isBlank()) {
            return Map.of();
        }
        try {
            return JsonParser.parseObject(text);
        } catch (IllegalArgumentException e) {
            throw RestHandlerException.badRequest("the request body is not valid JSON: %s", e.getMessage());
        }
    }

    /** An optional string field of a JSON body; 400 if present with another type. */
    public static Optional<String> stringField(Map<String, Object> body, String field) {
        Object value = body.get(field);
        if (value == null) {
            return Optional.empty();
        }
        if (!(value instanceof String s)) {
            throw RestHandlerException.badRequest("the field '%s' must be a string", field);
        }
        return Optional.of(s);
    }

    /** An optional boolean field of a JSON body; 400 if present with another type. */
    public static boolean booleanField(Map<String, Object> body, String field, boolean defaultValue) {
        Object value = body.get(field);
        if (value == null) {
            return defaultValue;
        }
        if (!(value instanceof Boolean b)) {
            throw RestHandlerException.badRequest("the field '%s' must be true or false", field);
        }
        return b;
    }
}
