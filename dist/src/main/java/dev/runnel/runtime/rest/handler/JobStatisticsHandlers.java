package dev.runnel.runtime.rest.handler;

import static dev.runnel.runtime.rest.handler.ClusterHandlers.done;
import static dev.runnel.runtime.rest.handler.JobHandlers.found;

import dev.runnel.api.common.JobID;
import dev.runnel.runtime.dispatcher.DispatcherGateway;
import dev.runnel.runtime.dispatcher.DispatcherGateway.CheckpointStatistics;
import dev.runnel.runtime.dispatcher.DispatcherGateway.CheckpointingStatistics;
import dev.runnel.runtime.dispatcher.DispatcherGateway.ExceptionInfo;
import dev.runnel.runtime.dispatcher.DispatcherGateway.JobExceptions;
import dev.runnel.runtime.dispatcher.DispatcherGateway.JobResult;
import dev.runnel.runtime.dispatcher.DispatcherGateway.SubtaskBackPressure;
import dev.runnel.runtime.dispatcher.DispatcherGateway.VertexBackPressure;
import dev.runnel.runtime.rest.RestHandlerException;
import dev.runnel.runtime.rest.RestRequest;
import dev.runnel.runtime.rest.RestResponse;
import dev.runnel.runtime.rest.json.JsonWriter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.ToLongFunction;

/**
 * Flink's per-job statistics: backpressure (JobVertexBackPressureInfo), checkpoints (CheckpointingStatistics),
 * exceptions (JobExceptionsInfoWithHistory) and the execution result (JobExecutionResultResponseBody), with
 * Flink's field names. Thread-safe.
 */
public final class JobStatisticsHandlers {

    private final DispatcherGateway gateway;

    public JobStatisticsHandlers(DispatcherGateway gateway) {
        this.gateway = gateway;
    }

    /**
     * Flink's levels: a ratio up to 0.10 is "ok", up to 0.5 "low", above that "high"; the vertex's level is its
     * worst subtask's.
     */
    public static String level(double ratio) {
        return ratio <= 0.10 ? "ok" : ratio <= 0.5 ? "low" : "high";
    }

    public CompletableFuture<RestResponse> backPressure(RestRequest request) {
        JobID jobId = request.jobId();
        String vertexId = request.pathParam("vertexid");
        found(gateway.job(jobId), jobId);
        VertexBackPressure bp = gateway.backPressure(jobId, vertexId)
                .orElseThrow(() -> RestHandlerException.notFound("job %s has no vertex '%s'", jobId, vertexId));
        double worst = bp.subtasks().stream().mapToDouble(SubtaskBackPressure::backPressuredRatio).max().orElse(0);
        JsonWriter json = new JsonWriter().beginObject()
                .field("status", "ok")
                .field("backpressure-level", level(worst))
                .field("end-timestamp", bp.endTimestamp())
                .name("subtasks").beginArray();
        for (SubtaskBackPressure s : bp.subtasks()) {
            json.beginObject()
                    .field("subtask", s.subtask())
                    .field("attempt-number", 0)
                    .field("backpressure-level", level(s.backPressuredRatio()))
                    .field("ratio", s.backPressuredRatio())
                    .field("idleRatio", s.idleRatio())
                    .field("busyRatio", s.busyRatio())
                    .endObject();
        }
        return done(json.endArray().endObject());
    }

    public CompletableFuture<RestResponse> checkpoints(RestRequest request) {
        JobID jobId = request.jobId();
        CheckpointingStatistics stats = found(gateway.checkpoints(jobId), jobId);
        JsonWriter json = new JsonWriter().beginObject()
                .name("counts").beginObject()
                .field("restored", stats.restored())
                .field("total", stats.total())
                .field("in_progress", stats.inProgress())
                .field("completed", stats.completed())
                .field("failed", stats.failed())
                .endObject();
        List<CheckpointStatistics> completed = stats.history().stream()
                .filter(c -> c.status().equals("COMPLETED")).toList();
        json.name("summary").beginObject();
        summary(json, "checkpointed_size", completed, CheckpointStatistics::stateSize);
        summary(json, "state_size", completed, CheckpointStatistics::stateSize);
        summary(json, "end_to_end_duration", completed, CheckpointStatistics::endToEndDurationMillis);
        json.endObject();
        json.name("latest").beginObject();
        latest(json, "completed", completed.stream().filter(c -> !c.savepoint()).findFirst().orElse(null));
        latest(json, "savepoint", completed.stream().filter(CheckpointStatistics::savepoint).findFirst().orElse(null));
        latest(json, "failed", stats.history().stream().filter(c -> c.status().equals("FAILED")).findFirst()
                .orElse(null));
        json.name("restored").nullValue().endObject();
        json.name("history").beginArray();
        stats.history().forEach(c -> checkpoint(json, c));
        return done(json.endArray().endObject());
    }

    public CompletableFuture<RestResponse> exceptions(RestRequest request) {
        JobID jobId = request.jobId();
        JobExceptions exceptions = found(gateway.exceptions(jobId), jobId);
        List<ExceptionInfo> entries = !exceptions.history().isEmpty() ? exceptions.history()
                : exceptions.root() != null ? List.of(exceptions.root()) : List.of();
        JsonWriter json = new JsonWriter().beginObject().name("exceptionHistory").beginObject()
                .name("entries").beginArray();
        for (ExceptionInfo e : entries) {
            exceptionInfo(json, e);
            json.name("concurrentExceptions").beginArray();
            e.concurrent().forEach(c -> exceptionInfo(json, c).endObject());
            json.endArray().endObject();
        }
        return done(json.endArray().field("truncated", false).endObject().endObject());
    }

    /** Opens an object with the fields Flink's exception entries and their concurrent exceptions share. */
    private static JsonWriter exceptionInfo(JsonWriter json, ExceptionInfo e) {
        return json.beginObject()
                .field("exceptionName", e.exceptionName())
                .field("stacktrace", e.stacktrace())
                .field("timestamp", e.timestamp())
                .field("taskName", e.taskName())
                .field("location", e.location())
                .field("endpoint", e.location())
                .field("failureLabels", Map.of());
    }

    public CompletableFuture<RestResponse> executionResult(RestRequest request) {
        JobID jobId = request.jobId();
        found(gateway.job(jobId), jobId);
        JsonWriter json = new JsonWriter().beginObject();
        JobResult result = gateway.result(jobId).orElse(null);
        if (result == null) {
            json.name("status").beginObject().field("id", "IN_PROGRESS").endObject();
            return done(json.endObject());
        }
        json.name("status").beginObject().field("id", "COMPLETED").endObject()
                .name("job-execution-result").beginObject()
                .field("id", result.jobId().toHexString())
                .field("application-status", result.applicationStatus())
                .field("accumulator-results", result.accumulators())
                .field("net-runtime", result.netRuntimeMillis());
        if (result.failure() != null) {
            json.name("failure-cause");
            failureCause(json, result.failure().exceptionName(), result.failure().stacktrace());
        }
        return done(json.endObject().endObject());
    }

    /** Flink's SerializedThrowable as JSON, without the Java-serialized bytes a Runnel client does not need. */
    static void failureCause(JsonWriter json, String className, String stackTrace) {
        json.beginObject().field("class", className).field("stack-trace", stackTrace).endObject();
    }

    private static void summary(JsonWriter json, String name, List<CheckpointStatistics> completed,
            ToLongFunction<CheckpointStatistics> value) {
        json.name(name).beginObject();
        if (completed.isEmpty()) {
            json.field("min", 0).field("max", 0).field("avg", 0);
        } else {
            json.field("min", completed.stream().mapToLong(value).min().orElse(0))
                    .field("max", completed.stream().mapToLong(value).max().orElse(0))
                    .field("avg", (long) completed.stream().mapToLong(value).average().orElse(0));
        }
        json.endObject();
    }

    private static void latest(JsonWriter json, String name, CheckpointStatistics c) {
        json.name(name);
        if (c == null) {
            json.nullValue();
        } else {
            checkpoint(json, c);
        }
    }

    private static void checkpoint(JsonWriter json, CheckpointStatistics c) {
        json.beginObject()
                .field("className", c.status().toLowerCase(Locale.ROOT))
                .field("id", c.id())
                .field("status", c.status())
                .field("is_savepoint", c.savepoint())
                .field("checkpoint_type", c.savepoint() ? "SAVEPOINT" : "CHECKPOINT")
                .field("trigger_timestamp", c.triggerTimestamp())
                .field("latest_ack_timestamp", c.latestAckTimestamp())
                .field("checkpointed_size", c.stateSize())
                .field("state_size", c.stateSize())
                .field("end_to_end_duration", c.endToEndDurationMillis())
                .field("num_subtasks", c.numSubtasks())
                .field("num_acknowledged_subtasks", c.numAcknowledgedSubtasks())
                .field("external_path", c.externalPath());
        if (c.failureMessage() != null) {
            json.field("failure_message", c.failureMessage());
        }
        json.endObject();
    }
}
