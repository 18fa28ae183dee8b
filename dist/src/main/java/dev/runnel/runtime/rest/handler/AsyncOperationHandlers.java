package dev.runnel.runtime.rest.handler;

import static dev.runnel.runtime.rest.handler.ClusterHandlers.done;
import static dev.runnel.runtime.rest.handler.JobHandlers.found;

import dev.runnel.api.common.JobID;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.dispatcher.DispatcherGateway;
import dev.runnel.runtime.rest.RestHandlerException;
import dev.runnel.runtime.rest.RestRequest;
import dev.runnel.runtime.rest.RestResponse;
import dev.runnel.runtime.rest.handler.AsyncOperations.Kind;
import dev.runnel.runtime.rest.json.JsonWriter;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The asynchronous actions with Flink's trigger/status protocol: {@code POST /jobs/:jobid/savepoints}
 * ({@code target-directory}, {@code cancel-job}, {@code formatType}, {@code triggerId}), {@code POST
 * /jobs/:jobid/stop} ({@code targetDirectory}, {@code drain}, {@code formatType}, {@code triggerId}) and Runnel's
 * {@code POST /jobs/:jobid/rescaling?parallelism=N}. Each answers 202 {@code {"request-id": triggerId}}; {@code
 * GET .../:triggerid} then answers {@code {"status":{"id":"IN_PROGRESS"}}} or {@code {"status":{"id":"COMPLETED"},
 * "operation":{"location":...}}} (a failure: {@code "operation":{"failure-cause":{...}}}). Thread-safe.
 */
public final class AsyncOperationHandlers {

    private final DispatcherGateway gateway;
    private final AsyncOperations operations = new AsyncOperations();

    public AsyncOperationHandlers(DispatcherGateway gateway) {
        this.gateway = gateway;
    }

    public CompletableFuture<RestResponse> triggerSavepoint(RestRequest request) {
        JobID jobId = request.jobId();
        Map<String, Object> body = request.jsonBody();
        String directory = RestRequest.stringField(body, "target-directory").orElse(null);
        boolean cancel = RestRequest.booleanField(body, "cancel-job", false);
        SavepointFormatType format = format(body);
        return trigger(Kind.SAVEPOINT, jobId, body,
                () -> gateway.triggerSavepoint(jobId, directory, format, cancel));
    }

    public CompletableFuture<RestResponse> stop(RestRequest request) {
        JobID jobId = request.jobId();
        Map<String, Object> body = request.jsonBody();
        String directory = RestRequest.stringField(body, "targetDirectory").orElse(null);
        boolean drain = RestRequest.booleanField(body, "drain", false);
        SavepointFormatType format = format(body);
        // as in Flink, a stop's status is a savepoint's: GET /jobs/:jobid/savepoints/:triggerid
        return trigger(Kind.SAVEPOINT, jobId, body, () -> gateway.stopWithSavepoint(jobId, directory, format, drain));
    }

    public CompletableFuture<RestResponse> rescale(RestRequest request) {
        JobID jobId = request.jobId();
        String text = request.queryParam("parallelism").orElseThrow(() -> RestHandlerException.badRequest(
                "the query parameter 'parallelism' is missing: POST /jobs/%s/rescaling?parallelism=N", jobId));
        int parallelism;
        try {
            parallelism = Integer.parseInt(text);
        } catch (NumberFormatException e) {
            throw RestHandlerException.badRequest("the parallelism '%s' is not a whole number", text);
        }
        if (parallelism < 1) {
            throw RestHandlerException.badRequest("the parallelism must be at least 1, got %d", parallelism);
        }
        return trigger(Kind.RESCALE, jobId, Map.of(),
                () -> gateway.rescale(jobId, parallelism).thenApply(ignored -> null));
    }

    public CompletableFuture<RestResponse> savepointStatus(RestRequest request) {
        return status(Kind.SAVEPOINT, request);
    }

    public CompletableFuture<RestResponse> rescaleStatus(RestRequest request) {
        return status(Kind.RESCALE, request);
    }

    private CompletableFuture<RestResponse> trigger(Kind kind, JobID jobId, Map<String, Object> body,
            Supplier<CompletableFuture<String>> operation) {
        found(gateway.job(jobId), jobId);
        String triggerId = RestRequest.stringField(body, "triggerId").orElseGet(AsyncOperations::newTriggerId);
        if (triggerId.length() != 32 || !triggerId.chars().allMatch(c -> Character.digit(c, 16) >= 0)) {
            throw RestHandlerException.badRequest("the triggerId '%s' is not 32 hexadecimal digits", triggerId);
        }
        operations.trigger(kind, jobId, triggerId.toLowerCase(Locale.ROOT), operation);
        JsonWriter json = new JsonWriter().beginObject().field("request-id", triggerId.toLowerCase(Locale.ROOT))
                .endObject();
        return CompletableFuture.completedFuture(RestResponse.json(HttpResponseStatus.ACCEPTED, json.toString()));
    }

    private CompletableFuture<RestResponse> status(Kind kind, RestRequest request) {
        JobID jobId = request.jobId();
        String triggerId = request.pathParam("triggerid").toLowerCase(Locale.ROOT);
        CompletableFuture<String> operation = operations.get(kind, jobId, triggerId).orElseThrow(() ->
                RestHandlerException.notFound("there is no %s operation with trigger id %s for job %s",
                        kind.description, triggerId, jobId));
        JsonWriter json = new JsonWriter().beginObject();
        if (!operation.isDone()) {
            json.name("status").beginObject().field("id", "IN_PROGRESS").endObject();
            return done(json.endObject());
        }
        json.name("status").beginObject().field("id", "COMPLETED").endObject().name("operation").beginObject();
        try {
            String location = operation.join();
            if (location != null) {
                json.field("location", location);
            }
        } catch (CompletionException | java.util.concurrent.CancellationException e) {
            Throwable cause = e instanceof CompletionException && e.getCause() != null ? e.getCause() : e;
            json.name("failure-cause");
            JobStatisticsHandlers.failureCause(json, cause.getClass().getName(), stackTrace(cause));
        }
        return done(json.endObject().endObject());
    }

    private static SavepointFormatType format(Map<String, Object> body) {
        String name = RestRequest.stringField(body, "formatType").orElse(SavepointFormatType.DEFAULT.name());
        try {
            return SavepointFormatType.valueOf(name.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw RestHandlerException.badRequest("the formatType '%s' is not one of %s", name,
                    Arrays.stream(SavepointFormatType.values()).map(Enum::name).collect(Collectors.joining(", ")));
        }
    }

    private static String stackTrace(Throwable t) {
        StringWriter out = new StringWriter();
        t.printStackTrace(new PrintWriter(out));
        return out.toString();
    }
}
