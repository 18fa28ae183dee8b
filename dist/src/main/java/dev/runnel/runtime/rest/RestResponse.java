package dev.runnel.runtime.rest;

import dev.runnel.runtime.rest.json.JsonWriter;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;

/** One answer: status, content type and body. Immutable (the body array is not copied; do not change it). */
public record RestResponse(HttpResponseStatus status, String contentType, byte[] body) {

    public static final String JSON = "application/json; charset=UTF-8";

    public static RestResponse json(HttpResponseStatus status, String json) {
        return new RestResponse(status, JSON, json.getBytes(StandardCharsets.UTF_8));
    }

    public static RestResponse ok(String json) {
        return json(HttpResponseStatus.OK, json);
    }

    /** Flink's error body: {@code {"errors":["..."]}}. */
    public static RestResponse error(HttpResponseStatus status, String message) {
        JsonWriter json = new JsonWriter().beginObject().name("errors").beginArray().value(message).endArray()
                .endObject();
        return json(status, json.toString());
    }
}
