package dev.runnel.client.rest;

import dev.runnel.api.common.JobID;
import dev.runnel.api.common.JobStatus;
import dev.runnel.core.execution.SavepointFormatType;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/**
 * A client of the JobManager's REST API (Flink 1.20's paths and JSON): list, submit, cancel, savepoint, stop
 * and rescale jobs, and read their results. Each call is one or two short HTTP requests and blocks; waiting
 * for an asynchronous operation is the caller's loop over the {@code ...Status} calls. Connections time out
 * after {@link #CONNECT_TIMEOUT}, so a cluster that is not running is reported within seconds as a
 * {@link JobManagerUnreachableException}; an error answer is a {@link RestClientException}. Thread-safe.
 */
public final class RestClusterClient {

    /** How long a connection to the JobManager may take before it counts as unreachable. */
    public static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(3);

    /** How long a short request may wait for its answer. */
    public static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(10);

    /** How long a job submission (the upload of the graph and the jars) may take. */
    public static final Duration SUBMIT_TIMEOUT = Duration.ofMinutes(2);

    private final URI address;
    private final String authToken;
    private final HttpClient http;

    /**
     * A client of the JobManager at {@code address} (e.g. {@code http://127.0.0.1:8081}); {@code authToken}
     * ({@code rest.auth.token}) is sent as a bearer token, or nothing when null or blank.
     */
    public RestClusterClient(URI address, String authToken) {
        this.address = URI.create(address.toString().replaceAll("/+$", ""));
        this.authToken = authToken == null || authToken.isBlank() ? null : authToken.strip();
        this.http = HttpClient.newBuilder().connectTimeout(CONNECT_TIMEOUT).version(HttpClient.Version.HTTP_1_1)
                .build();
    }

    /** Where the JobManager is expected, as {@code http://host:port}. */
    public URI address() {
        return address;
    }

    // ------------------------------------------------------------------ jobs

    /** One job of {@code /jobs/overview}; {@code startTime} epoch milliseconds. */
    public record JobSummary(JobID jobId, String name, JobStatus state, long startTime) {}

    /** Every job the JobManager knows, as {@code GET /jobs/overview} lists them. */
    public List<JobSummary> listJobs() {
        Map<String, Object> answer = object(send(get("/jobs/overview"), "list the jobs"));
        List<JobSummary> jobs = new ArrayList<>();
        for (Object entry : list(answer.get("jobs"))) {
            Map<String, Object> job = object(entry);
            jobs.add(new JobSummary(JobID.fromHexString(string(job.get("jid"))), string(job.get("name")),
                    JobStatus.valueOf(string(job.get("state"))), number(job.get("start-time"))));
        }
        return jobs;
    }

    /**
     * Submits a job as Flink's CLI does ({@code POST /jobs}, multipart): {@code jobGraph} is the Java-serialized
     * JobGraph, {@code jars} the user's code. Returns the job's id from the answer's {@code jobUrl}.
     */
    public JobID submitJob(byte[] jobGraph, List<Path> jars) {
        Multipart body = new Multipart();
        StringBuilder request = new StringBuilder("{\"jobGraphFileName\":\"job.graph\",\"jobJarFileNames\":[");
        for (int i = 0; i < jars.size(); i++) {
            request.append(i == 0 ? "" : ",").append(dev.runnel.runtime.rest.json.JsonWriter.quoted(jars.get(i).getFileName().toString()));
        }
        request.append("],\"jobArtifactFileNames\":[]}");
        body.field("request", "application/json", request.toString().getBytes(StandardCharsets.UTF_8));
        body.file("job.graph", "job.graph", jobGraph);
        for (Path jar : jars) {
            try {
                body.file(jar.getFileName().toString(), jar.getFileName().toString(), Files.readAllBytes(jar));
            } catch (IOException e) {
                throw new UncheckedIOException("Cannot read the job's jar " + jar + ": " + e.getMessage(), e);
            }
        }
        HttpRequest post = request("/jobs").timeout(SUBMIT_TIMEOUT)
                .header("Content-Type", "multipart/form-data; boundary=" + body.boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.finish())).build();
        String jobUrl = string(object(send(post, "submit the job")).get("jobUrl"));
        if (jobUrl == null || !jobUrl.matches(".*/jobs/[0-9a-fA-F]{32}")) {
            throw new RestClientException(200, "The JobManager accepted the job but answered no job URL: " + jobUrl);
        }
        return JobID.fromHexString(jobUrl.substring(jobUrl.length() - 32));
    }

    /** The job's state ({@code GET /jobs/:jobid}). */
    public JobStatus jobStatus(JobID jobId) {
        return JobStatus.valueOf(string(object(send(get("/jobs/" + jobId), "read job " + jobId)).get("state")));
    }

    /** Asks the JobManager to cancel the job ({@code PATCH /jobs/:jobid?mode=cancel}); returns once accepted. */
    public void cancel(JobID jobId) {
        send(request("/jobs/" + jobId + "?mode=cancel").method("PATCH", HttpRequest.BodyPublishers.noBody()).build(),
                "cancel job " + jobId);
    }

    /** A finished job's result ({@code GET /jobs/:jobid/execution-result}); empty while it runs. */
    public Optional<JobResultInfo> executionResult(JobID jobId) {
        Map<String, Object> answer = object(send(get("/jobs/" + jobId + "/execution-result"),
                "read the result of job " + jobId));
        if (!"COMPLETED".equals(statusId(answer))) {
            return Optional.empty();
        }
        Map<String, Object> result = object(answer.get("job-execution-result"));
        String status = string(result.get("application-status"));
        if (status == null || status.equals("UNKNOWN")) {
            return Optional.empty(); // Flink's UNKNOWN: not known to have ended; a JobManager may answer it early
        }
        Map<String, String> accumulators = new java.util.LinkedHashMap<>();
        Object raw = result.get("accumulator-results");
        if (raw instanceof Map<?, ?> map) {
            map.forEach((k, v) -> accumulators.put(String.valueOf(k), String.valueOf(v)));
        }
        return Optional.of(new JobResultInfo(jobId, status,
                number(result.get("net-runtime")), accumulators, failure(result.get("failure-cause"))));
    }

    /** A finished job as {@code execution-result} reports it; {@code failure} null unless it failed. */
    public record JobResultInfo(JobID jobId, String applicationStatus, long netRuntimeMillis,
            Map<String, String> accumulators, RemoteFailure failure) {}

    // ------------------------------------------------------------------ asynchronous operations

    /** Triggers a savepoint ({@code POST /jobs/:jobid/savepoints}); returns the trigger id to poll. */
    public String triggerSavepoint(JobID jobId, String targetDirectory, SavepointFormatType format, boolean cancelJob) {
        String body = "{\"target-directory\":" + dev.runnel.runtime.rest.json.JsonWriter.quoted(targetDirectory) + ",\"cancel-job\":" + cancelJob
                + ",\"formatType\":" + dev.runnel.runtime.rest.json.JsonWriter.quoted(format.name()) + "}";
        return requestId(send(postJson("/jobs/" + jobId + "/savepoints", body), "trigger a savepoint of job " + jobId));
    }

    /** Stop-with-savepoint ({@code POST /jobs/:jobid/stop}); poll with {@link #savepointStatus}. */
    public String stopWithSavepoint(JobID jobId, String targetDirectory, boolean drain, SavepointFormatType format) {
        String body = "{\"targetDirectory\":" + dev.runnel.runtime.rest.json.JsonWriter.quoted(targetDirectory) + ",\"drain\":" + drain
                + ",\"formatType\":" + dev.runnel.runtime.rest.json.JsonWriter.quoted(format.name()) + "}";
        return requestId(send(postJson("/jobs/" + jobId + "/stop", body), "stop job " + jobId));
    }

    /**
     * The savepoint's location once it completed ({@code GET /jobs/:jobid/savepoints/:triggerid}), empty while
     * it is in progress; a failed savepoint throws a {@link RestClientException} with the cluster's cause.
     */
    public Optional<String> savepointStatus(JobID jobId, String triggerId) {
        Map<String, Object> answer = object(send(get("/jobs/" + jobId + "/savepoints/" + triggerId),
                "read the savepoint of job " + jobId));
        return completedOperation(answer, "The savepoint of job " + jobId + " failed")
                .map(operation -> string(operation.get("location")));
    }

    /** Runnel's in-place rescale of every vertex ({@code POST /jobs/:jobid/rescaling?parallelism=N}). */
    public String triggerRescale(JobID jobId, int parallelism) {
        HttpRequest post = request("/jobs/" + jobId + "/rescaling?parallelism=" + parallelism)
                .POST(HttpRequest.BodyPublishers.noBody()).build();
        return requestId(send(post, "rescale job " + jobId));
    }

    /** Whether the rescale completed; a failed one throws a {@link RestClientException} with the cause. */
    public boolean rescaleStatus(JobID jobId, String triggerId) {
        Map<String, Object> answer = object(send(get("/jobs/" + jobId + "/rescaling/" + triggerId),
                "read the rescale of job " + jobId));
        return completedOperation(answer, "Rescaling job " + jobId + " failed").isPresent();
    }

    private static Optional<Map<String, Object>> completedOperation(Map<String, Object> answer, String failed) {
        if (!"COMPLETED".equals(statusId(answer))) {
            return Optional.empty();
        }
        Map<String, Object> operation = answer.get("operation") instanceof Map<?, ?> ? object(answer.get("operation"))
                : Map.of();
        RemoteFailure failure = failure(operation.get("failure-cause"));
        if (failure != null) {
            throw new RestClientException(200, failed + ": " + failure.getMessage());
        }
        return Optional.of(operation);
    }

    // ------------------------------------------------------------------ HTTP

    private HttpRequest.Builder request(String path) {
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(address + path)).timeout(REQUEST_TIMEOUT)
                .header("Accept", "application/json");
        if (authToken != null) {
            builder.header("Authorization", "Bearer " + authToken);
        }
        return builder;
    }

    private HttpRequest get(String path) {
        return request(path).GET().build();
    }

    private HttpRequest postJson(String path, String json) {
        return request(path).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json, StandardCharsets.UTF_8)).build();
    }

    /** The answer's JSON; an error status becomes a {@link RestClientException}, no answer an unreachable one. */
    private Object send(HttpRequest request, String what) {
        HttpResponse<String> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpConnectTimeoutException e) {
            throw new JobManagerUnreachableException(address, "no connection within "
                    + CONNECT_TIMEOUT.toSeconds() + " s", e);
        } catch (HttpTimeoutException e) {
            throw new JobManagerUnreachableException(address, "no answer to '" + what + "' within "
                    + request.timeout().map(Duration::toSeconds).orElse(0L) + " s", e);
        } catch (ConnectException e) {
            throw new JobManagerUnreachableException(address, e.getMessage() == null || e.getMessage().isBlank()
                    ? "Connection refused" : e.getMessage(), e);
        } catch (IOException e) {
            throw new JobManagerUnreachableException(address, String.valueOf(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while trying to " + what, e);
        }
        String body = response.body() == null ? "" : response.body();
        if (response.statusCode() >= 300) {
            throw new RestClientException(response.statusCode(), errorMessage(what, response.statusCode(), body));
        }
        try {
            return body.isBlank() ? Map.of() : dev.runnel.runtime.rest.json.JsonParser.parse(body);
        } catch (IllegalArgumentException e) {
            throw new RestClientException(response.statusCode(), "Cannot " + what + ": the JobManager at " + address
                    + " answered no JSON (" + e.getMessage() + ")");
        }
    }

    private String errorMessage(String what, int status, String body) {
        String errors = body;
        try {
            if (dev.runnel.runtime.rest.json.JsonParser.parse(body) instanceof Map<?, ?> map && map.get("errors") instanceof List<?> list) {
                errors = String.join("; ", list.stream().map(String::valueOf).toList());
            }
        } catch (IllegalArgumentException notJson) {
            // the body as it came
        }
        return "Cannot " + what + ": the JobManager answered " + status + (errors.isBlank() ? "" : ": " + errors.strip());
    }

    // ------------------------------------------------------------------ reading the answers

    private static String statusId(Map<String, Object> answer) {
        return answer.get("status") instanceof Map<?, ?> status ? String.valueOf(status.get("id")) : null;
    }

    private static String requestId(Object answer) {
        String id = string(object(answer).get("request-id"));
        if (id == null) {
            throw new RestClientException(200, "The JobManager answered no request-id: " + answer);
        }
        return id;
    }

    private static RemoteFailure failure(Object cause) {
        if (!(cause instanceof Map<?, ?> map)) {
            return null;
        }
        return new RemoteFailure(string(map.get("class")), string(map.get("stack-trace")));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> object(Object value) {
        if (value instanceof Map<?, ?> map) {
            return (Map<String, Object>) map;
        }
        throw new RestClientException(200, "Expected a JSON object from the JobManager, got " + value);
    }

    private static List<?> list(Object value) {
        return value instanceof List<?> list ? list : List.of();
    }

    private static String string(Object value) {
        return value == null ? null : String.valueOf(value);
    }

    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : -1;
    }

    /** A multipart/form-data body, built in memory (a job's graph and jars are megabytes, not gigabytes). */
    private static final class Multipart {
        final String boundary = "runnel-" + UUID.randomUUID();
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        void field(String name, String contentType, byte[] content) {
            part("form-data; name=\"" + name + "\"", contentType, content);
        }

        void file(String name, String fileName, byte[] content) {
            part("form-data; name=\"" + name + "\"; filename=\"" + fileName + "\"", "application/octet-stream",
                    content);
        }

        private void part(String disposition, String contentType, byte[] content) {
            write("--" + boundary + "\r\nContent-Disposition: " + disposition + "\r\nContent-Type: " + contentType
                    + "\r\n\r\n");
            out.writeBytes(content);
            write("\r\n");
        }

        byte[] finish() {
            write("--" + boundary + "--\r\n");
            return out.toByteArray();
        }

        private void write(String text) {
            out.writeBytes(text.getBytes(StandardCharsets.UTF_8));
        }
    }
}
