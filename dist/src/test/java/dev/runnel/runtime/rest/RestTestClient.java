package dev.runnel.runtime.rest;

import dev.runnel.runtime.rest.json.JsonParser;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A small HTTP client for the REST tests: requests with an optional bearer token, answers parsed as JSON. */
final class RestTestClient {

    record Answer(int status, String body, HttpResponse<String> response) {
        @SuppressWarnings("unchecked")
        Map<String, Object> json() {
            return (Map<String, Object>) JsonParser.parse(body);
        }

        /** Flink's error body: {"errors":[...]} with exactly one message. */
        @SuppressWarnings("unchecked")
        String error() {
            Map<String, Object> json = json();
            if (json.size() != 1 || !(json.get("errors") instanceof List<?> errors) || errors.size() != 1) {
                throw new AssertionError("not Flink's error body: " + body);
            }
            return (String) ((List<Object>) json.get("errors")).get(0);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String base;
    private final String token;

    RestTestClient(String base, String token) {
        this.base = base;
        this.token = token;
    }

    Answer get(String path) throws IOException, InterruptedException {
        return send("GET", path, HttpRequest.BodyPublishers.noBody(), null);
    }

    Answer send(String method, String path, String json) throws IOException, InterruptedException {
        return send(method, path, json == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(json), json == null ? null : "application/json");
    }

    Answer send(String method, String path, HttpRequest.BodyPublisher body, String contentType)
            throws IOException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + path))
                .timeout(Duration.ofSeconds(10)).method(method, body);
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        if (contentType != null) {
            request.header("Content-Type", contentType);
        }
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        return new Answer(response.statusCode(), response.body(), response);
    }

    /** A multipart/form-data body: each part is {name, fileName (null for a plain field), bytes}. */
    static final class Multipart {
        final String boundary = "----runnel-test-boundary-7f3a";
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Multipart field(String name, String value, String contentType) {
            head("Content-Disposition: form-data; name=\"" + name + "\"", contentType);
            write(value.getBytes(StandardCharsets.UTF_8));
            return this;
        }

        Multipart file(String name, String fileName, byte[] bytes) {
            head("Content-Disposition: form-data; name=\"" + name + "\"; filename=\"" + fileName + "\"",
                    "application/octet-stream");
            write(bytes);
            return this;
        }

        byte[] bytes() {
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            all.writeBytes(out.toByteArray());
            all.writeBytes(("--" + boundary + "--\r\n").getBytes(StandardCharsets.UTF_8));
            return all.toByteArray();
        }

        String contentType() {
            return "multipart/form-data; boundary=" + boundary;
        }

        private void head(String disposition, String contentType) {
            String head = "--" + boundary + "\r\n" + disposition + "\r\n"
                    + (contentType == null ? "" : "Content-Type: " + contentType + "\r\n") + "\r\n";
            out.writeBytes(head.getBytes(StandardCharsets.UTF_8));
        }

        private void write(byte[] bytes) {
            out.writeBytes(bytes);
            out.writeBytes("\r\n".getBytes(StandardCharsets.UTF_8));
        }
    }
}
