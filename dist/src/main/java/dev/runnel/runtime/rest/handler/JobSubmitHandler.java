package dev.runnel.runtime.rest.handler;

import dev.runnel.runtime.dispatcher.DispatcherGateway;
import dev.runnel.runtime.rest.RestHandlerException;
import dev.runnel.runtime.rest.RestRequest;
import dev.runnel.runtime.rest.RestResponse;
import dev.runnel.runtime.rest.json.JsonParser;
import dev.runnel.runtime.rest.json.JsonWriter;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.multipart.Attribute;
import io.netty.handler.codec.http.multipart.DefaultHttpDataFactory;
import io.netty.handler.codec.http.multipart.FileUpload;
import io.netty.handler.codec.http.multipart.HttpPostRequestDecoder;
import io.netty.handler.codec.http.multipart.InterfaceHttpData;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

/**
 * Flink's JobSubmitHandler: {@code POST /jobs} with a multipart/form-data body holding a JSON part {@code request}
 * ({@code {"jobGraphFileName": ..., "jobJarFileNames": [...]}}) and the named files as parts (matched by their
 * file name, or by their part name). The jars are stored in a fresh directory under the upload directory and
 * handed to {@link DispatcherGateway#submit} with the job graph's bytes; they stay there while the job may
 * need them (the directory is removed if the submission fails). Answers 202 {@code {"jobUrl":"/jobs/<id>"}}.
 * Runs on the event loop up to the gateway call; the body is already aggregated (and size-limited) by then.
 */
public final class JobSubmitHandler {

    /** The multipart attribute holding the request's JSON, as Flink's FileUploadHandler names it. */
    public static final String REQUEST_PART = "request";

    private final DispatcherGateway gateway;
    private final Path uploadDir;

    public JobSubmitHandler(DispatcherGateway gateway, Path uploadDir) {
        this.gateway = gateway;
        this.uploadDir = uploadDir;
    }

    private record Part(String name, String fileName, byte[] bytes) {}

    public CompletableFuture<RestResponse> submit(RestRequest request) {
        if (!HttpPostRequestDecoder.isMultipart(request.http())) {
            throw RestHandlerException.badRequest("a job submission must be multipart/form-data with a JSON part"
                    + " '%s' and the job graph and jars as file parts", REQUEST_PART);
        }
        List<Part> parts = decode(request);
        Map<String, Object> body = requestBody(parts);
        String graphName = RestRequest.stringField(body, "jobGraphFileName").orElseThrow(() ->
                RestHandlerException.badRequest("the field 'jobGraphFileName' of the part '%s' is missing",
                        REQUEST_PART));
        List<String> jarNames = stringList(body, "jobJarFileNames");
        Object artifacts = body.get("jobArtifactFileNames");
        if (artifacts instanceof List<?> list && !list.isEmpty()) {
            throw RestHandlerException.badRequest("jobArtifactFileNames (the distributed cache) is not supported");
        }
        byte[] graph = file(parts, graphName).bytes();
        Path dir = createUploadDir();
        List<Path> jars = new ArrayList<>();
        try {
            for (String jarName : jarNames) {
                Part jar = file(parts, jarName);
                Path target = dir.resolve(safeFileName(jarName));
                Files.write(target, jar.bytes());
                jars.add(target);
            }
        } catch (IOException e) {
            deleteQuietly(dir);
            throw new UncheckedIOException("cannot store an upload under " + dir, e);
        } catch (RuntimeException e) {
            deleteQuietly(dir);
            throw e;
        }
        CompletableFuture<dev.runnel.api.common.JobID> submitted;
        try {
            submitted = gateway.submit(graph, List.copyOf(jars));
        } catch (RuntimeException e) {
            deleteQuietly(dir);
            throw e;
        }
        return submitted.whenComplete((id, failure) -> {
            if (failure != null) {
                deleteQuietly(dir);
            }
        }).thenApply(id -> RestResponse.json(HttpResponseStatus.ACCEPTED,
                new JsonWriter().beginObject().field("jobUrl", "/jobs/" + id.toHexString()).endObject().toString()));
    }

    private static List<Part> decode(RestRequest request) {
        HttpPostRequestDecoder decoder;
        try {
            decoder = new HttpPostRequestDecoder(new DefaultHttpDataFactory(false), request.http());
        } catch (HttpPostRequestDecoder.ErrorDataDecoderException e) {
            throw RestHandlerException.badRequest("the multipart body is malformed: %s", e.getMessage());
        }
        try {
            List<Part> parts = new ArrayList<>();
            for (InterfaceHttpData data : decoder.getBodyHttpDatas()) {
                if (data instanceof FileUpload upload) {
                    parts.add(new Part(upload.getName(), upload.getFilename(), upload.get()));
                } else if (data instanceof Attribute attribute) {
                    parts.add(new Part(attribute.getName(), null, attribute.get()));
                }
            }
            return parts;
        } catch (HttpPostRequestDecoder.ErrorDataDecoderException | HttpPostRequestDecoder.NotEnoughDataDecoderException
                e) {
            throw RestHandlerException.badRequest("the multipart body is malformed: %s", e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            decoder.destroy();
        }
    }

    private static Map<String, Object> requestBody(List<Part> parts) {
        Part part = parts.stream().filter(p -> REQUEST_PART.equals(p.name())).findFirst().orElseThrow(() ->
                RestHandlerException.badRequest("the multipart body has no part '%s' with the JSON request"
                        + " {\"jobGraphFileName\": ..., \"jobJarFileNames\": [...]}", REQUEST_PART));
        try {
            return JsonParser.parseObject(new String(part.bytes(), StandardCharsets.UTF_8));
        } catch (IllegalArgumentException e) {
            throw RestHandlerException.badRequest("the part '%s' is not a JSON object: %s", REQUEST_PART,
                    e.getMessage());
        }
    }

    private static List<String> stringList(Map<String, Object> body, String field) {
        Object value = body.get(field);
        if (value == null) {
            return List.of();
        }
        if (!(value instanceof List<?> list) || !list.stream().allMatch(String.class::isInstance)) {
            throw RestHandlerException.badRequest("the field '%s' must be an array of file names", field);
        }
        return list.stream().map(String.class::cast).toList();
    }

    private static Part file(List<Part> parts, String name) {
        return parts.stream().filter(p -> p.fileName() != null && p.fileName().equals(name)).findFirst()
                .or(() -> parts.stream().filter(p -> p.fileName() != null && name.equals(p.name())).findFirst())
                .orElseThrow(() -> RestHandlerException.badRequest(
                        "the request names the file '%s', but no file part of the body has that name", name));
    }

    /** A file name is stored as a plain name: no directories, so no upload escapes its directory. */
    static String safeFileName(String name) {
        if (name.isEmpty() || name.contains("/") || name.contains("\\") || name.equals(".") || name.equals("..")
                || name.chars().anyMatch(c -> c < 0x20)) {
            throw RestHandlerException.badRequest("the file name '%s' is not a plain file name", name);
        }
        return name;
    }

    private Path createUploadDir() {
        try {
            Files.createDirectories(uploadDir);
            return Files.createTempDirectory(uploadDir, "job-");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create an upload directory under " + uploadDir, e);
        }
    }

    private static void deleteQuietly(Path dir) {
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException | UncheckedIOException ignored) {
            // best effort: a leftover directory under the upload dir is harmless
        }
    }
}
