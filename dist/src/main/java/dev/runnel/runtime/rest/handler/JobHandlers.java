package dev.runnel.runtime.rest.handler;

import static dev.runnel.runtime.rest.handler.ClusterHandlers.done;

import dev.runnel.api.common.JobID;
import dev.runnel.api.common.JobStatus;
import dev.runnel.runtime.dispatcher.DispatcherGateway;
import dev.runnel.runtime.dispatcher.DispatcherGateway.EdgeDetails;
import dev.runnel.runtime.dispatcher.DispatcherGateway.JobDetails;
import dev.runnel.runtime.dispatcher.DispatcherGateway.JobOverview;
import dev.runnel.runtime.dispatcher.DispatcherGateway.VertexDetails;
import dev.runnel.runtime.rest.RestHandlerException;
import dev.runnel.runtime.rest.RestRequest;
import dev.runnel.runtime.rest.RestResponse;
import dev.runnel.runtime.rest.json.JsonWriter;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * Flink's job answers: {@code /jobs} (JobIdsWithStatusOverview), {@code /jobs/overview} (MultipleJobsDetails),
 * {@code /jobs/:jobid} (JobDetailsInfo with its {@code plan}), {@code /jobs/:jobid/plan}, {@code /jobs/:jobid/vertices/:vertexid}
 * (JobVertexDetailsInfo) and the cancel action {@code PATCH /jobs/:jobid}. Beyond Flink's fields, each vertex
 * carries Runnel's {@code operators}, {@code busyRatio}, {@code backPressuredRatio} and record rates, and the job
 * its {@code edges} with partitioner and distribution pattern: what the dashboard draws. Thread-safe.
 */
public final class JobHandlers {

    /** Flink's ExecutionState names, in Flink's order. */
    public static final List<String> EXECUTION_STATES = List.of("CREATED", "SCHEDULED", "DEPLOYING", "RUNNING",
            "FINISHED", "CANCELING", "CANCELED", "FAILED", "RECONCILING", "INITIALIZING");

    private final DispatcherGateway gateway;

    public JobHandlers(DispatcherGateway gateway) {
        this.gateway = gateway;
    }

    public CompletableFuture<RestResponse> jobIds(RestRequest request) {
        JsonWriter json = new JsonWriter().beginObject().name("jobs").beginArray();
        for (JobOverview job : gateway.jobs()) {
            json.beginObject().field("id", job.jobId().toHexString()).field("status", job.state()).endObject();
        }
        return done(json.endArray().endObject());
    }

    public CompletableFuture<RestResponse> overview(RestRequest request) {
        long now = System.currentTimeMillis();
        JsonWriter json = new JsonWriter().beginObject().name("jobs").beginArray();
        for (JobOverview job : gateway.jobs()) {
            writeOverview(json, job, now);
        }
        return done(json.endArray().endObject());
    }

    public CompletableFuture<RestResponse> details(RestRequest request) {
        JobID jobId = request.jobId();
        JobDetails job = found(gateway.job(jobId), jobId);
        JobOverview o = job.overview();
        JsonWriter json = new JsonWriter().beginObject()
                .field("jid", jobId.toHexString())
                .field("name", o.name())
                .field("isStoppable", false)
                .field("state", o.state())
                .field("job-type", "STREAMING")
                .field("start-time", o.startTime())
                .field("end-time", o.endTime())
                .field("duration", duration(o, job.now()))
                .field("maxParallelism", job.vertices().stream().mapToInt(VertexDetails::maxParallelism).max()
                        .orElse(-1))
                .field("now", job.now());
        writeTimestamps(json, o);
        json.name("vertices").beginArray();
        for (VertexDetails v : job.vertices()) {
            writeVertex(json, v);
        }
        json.endArray();
        json.name("status-counts").beginObject();
        for (String state : EXECUTION_STATES) {
            json.field(state, job.vertices().stream().filter(v -> state.equals(v.state())).count());
        }
        json.endObject();
        writePlan(json, jobId, job);
        json.name("edges").beginArray();
        for (EdgeDetails e : job.edges()) {
            json.beginObject().field("source", e.sourceVertexId()).field("target", e.targetVertexId())
                    .field("partitioner", e.partitioner()).field("pattern", e.pattern()).endObject();
        }
        json.endArray();
        return done(json.endObject());
    }

    /** Flink's {@code /jobs/:jobid/plan} (JobPlanInfo): the plan of {@code /jobs/:jobid} on its own. */
    public CompletableFuture<RestResponse> plan(RestRequest request) {
        JobID jobId = request.jobId();
        JobDetails job = found(gateway.job(jobId), jobId);
        JsonWriter json = new JsonWriter().beginObject();
        writePlan(json, jobId, job);
        return done(json.endObject());
    }

    public CompletableFuture<RestResponse> vertex(RestRequest request) {
        JobID jobId = request.jobId();
        String vertexId = request.pathParam("vertexid");
        JobDetails job = found(gateway.job(jobId), jobId);
        VertexDetails v = job.vertices().stream().filter(x -> x.id().equals(vertexId)).findFirst()
                .orElseThrow(() -> RestHandlerException.notFound("job %s has no vertex '%s'", jobId, vertexId));
        JsonWriter json = new JsonWriter().beginObject()
                .field("id", v.id())
                .field("name", v.name())
                .field("parallelism", v.parallelism())
                .field("maxParallelism", v.maxParallelism())
                .field("now", job.now())
                .name("subtasks").beginArray();
        for (int i = 0; i < v.subtaskStates().size(); i++) {
            json.beginObject().field("subtask", i).field("status", v.subtaskStates().get(i)).field("attempt", 0)
                    .endObject();
        }
        return done(json.endArray().endObject());
    }

    /** {@code PATCH /jobs/:jobid[?mode=cancel]}: 202 with an empty object once the cancellation is under way. */
    public CompletableFuture<RestResponse> cancel(RestRequest request) {
        JobID jobId = request.jobId();
        String mode = request.queryParam("mode").orElse("cancel");
        if (!mode.equalsIgnoreCase("cancel")) {
            throw RestHandlerException.badRequest("the termination mode '%s' is not supported: the only mode is"
                    + " 'cancel' (stop with a savepoint is POST /jobs/%s/stop)", mode, jobId);
        }
        found(gateway.job(jobId), jobId);
        return gateway.cancel(jobId).thenApply(ignored -> RestResponse.json(HttpResponseStatus.ACCEPTED, "{}"));
    }

    static <T> T found(java.util.Optional<T> answer, JobID jobId) {
        return answer.orElseThrow(() -> RestHandlerException.notFound("Job %s not found", jobId));
    }

    private static long duration(JobOverview o, long now) {
        return (o.endTime() > 0 ? o.endTime() : now) - o.startTime();
    }

    private static void writeOverview(JsonWriter json, JobOverview job, long now) {
        json.beginObject()
                .field("jid", job.jobId().toHexString())
                .field("name", job.name())
                .field("start-time", job.startTime())
                .field("end-time", job.endTime())
                .field("duration", duration(job, now))
                .field("state", job.state())
                .field("last-modification", job.lastModification())
                .name("tasks").beginObject();
        int total = 0;
        for (String state : EXECUTION_STATES) {
            int count = job.taskCounts().getOrDefault(state, 0);
            total += count;
            json.field(state.toLowerCase(Locale.ROOT), count);
        }
        json.field("total", total).endObject().endObject();
    }

    /** Flink's per-JobStatus timestamps; Runnel knows the start, the last change and the end. */
    private static void writeTimestamps(JsonWriter json, JobOverview o) {
        json.name("timestamps").beginObject();
        for (JobStatus status : JobStatus.values()) {
            long at = 0;
            if (status == JobStatus.INITIALIZING) {
                at = o.startTime();
            } else if (status.name().equals(o.state())) {
                at = o.endTime() > 0 ? o.endTime() : o.lastModification();
            }
            json.field(status.name(), at);
        }
        json.endObject();
    }

    private static void writeVertex(JsonWriter json, VertexDetails v) {
        json.beginObject()
                .field("id", v.id())
                .field("name", v.name())
                .field("maxParallelism", v.maxParallelism())
                .field("parallelism", v.parallelism())
                .field("status", v.state())
                .field("start-time", -1)
                .field("end-time", -1)
                .field("duration", -1)
                .name("tasks").beginObject();
        for (String state : EXECUTION_STATES) {
            json.field(state, v.subtaskStates().stream().filter(state::equals).count());
        }
        json.endObject()
                .name("metrics").beginObject()
                .field("read-bytes", v.bytesIn())
                .field("read-bytes-complete", true)
                .field("write-bytes", v.bytesOut())
                .field("write-bytes-complete", true)
                .field("read-records", v.recordsIn())
                .field("read-records-complete", true)
                .field("write-records", v.recordsOut())
                .field("write-records-complete", true)
                .endObject();
        // Runnel's: what the dashboard shows beyond Flink's fields
        json.name("operators").beginArray();
        v.operators().forEach(json::value);
        json.endArray()
                .field("busyRatio", v.busyRatio())
                .field("backPressuredRatio", v.backPressuredRatio())
                .field("recordsInPerSecond", v.recordsInPerSecond())
                .field("recordsOutPerSecond", v.recordsOutPerSecond())
                .endObject();
    }

    private static void writePlan(JsonWriter json, JobID jobId, JobDetails job) {
        json.name("plan").beginObject()
                .field("jid", jobId.toHexString())
                .field("name", job.overview().name())
                .field("type", "STREAMING")
                .name("nodes").beginArray();
        for (VertexDetails v : job.vertices()) {
            json.beginObject()
                    .field("id", v.id())
                    .field("parallelism", v.parallelism())
                    .field("operator", "")
                    .field("operator_strategy", "")
                    .field("description", v.name())
                    .name("inputs").beginArray();
            int num = 0;
            for (EdgeDetails e : job.edges()) {
                if (e.targetVertexId().equals(v.id())) {
                    json.beginObject().field("num", num++).field("id", e.sourceVertexId())
                            .field("ship_strategy", e.partitioner()).field("exchange", "pipelined_bounded")
                            .endObject();
                }
            }
            json.endArray().field("optimizer_properties", Map.of()).endObject();
        }
        json.endArray().endObject();
    }
}
