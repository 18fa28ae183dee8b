package dev.runnel.runtime.rest;

import static dev.runnel.runtime.rest.InMemoryDispatcherGateway.JOB;
import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Every GET path answers with Flink's field names (and Runnel's additions the dashboard reads). */
@Timeout(60)
class RestEndpointJsonTest {

    @TempDir
    Path uploads;
    private RestServerFixture fixture;
    private final String job = "/jobs/" + JOB.toHexString();

    @BeforeEach
    void start() throws Exception {
        fixture = new RestServerFixture(uploads);
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    private Map<String, Object> get(String path) throws Exception {
        RestTestClient.Answer answer = fixture.client.get(path);
        assertThat(answer.status()).as(path + ": " + answer.body()).isEqualTo(200);
        assertThat(answer.response().headers().firstValue("Content-Type")).hasValue("application/json; charset=UTF-8");
        return answer.json();
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> obj(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Object> list(Object o) {
        return (List<Object>) o;
    }

    @Test
    void overview() throws Exception {
        Map<String, Object> o = get("/overview");
        assertThat(o).containsOnlyKeys("taskmanagers", "slots-total", "slots-available", "jobs-running",
                "jobs-finished", "jobs-cancelled", "jobs-failed", "flink-version", "flink-commit");
        assertThat(o).containsEntry("taskmanagers", 2L).containsEntry("slots-available", 5L)
                .containsEntry("flink-version", "0.1.0-SNAPSHOT");
    }

    @Test
    void versionPrefixIsAccepted() throws Exception {
        assertThat(get("/v1/overview")).containsEntry("slots-total", 8L);
    }

    @Test
    void config() throws Exception {
        Map<String, Object> c = get("/config");
        assertThat(c).containsKeys("refresh-interval", "timezone-name", "timezone-offset", "flink-version",
                "flink-revision", "features");
        assertThat(obj(c.get("features"))).containsEntry("web-submit", false).containsEntry("web-cancel", true);
    }

    @Test
    void taskManagers() throws Exception {
        List<Object> tms = list(get("/taskmanagers").get("taskmanagers"));
        assertThat(tms).hasSize(2);
        Map<String, Object> tm = obj(tms.get(0));
        assertThat(tm).containsKeys("id", "path", "dataPort", "jmxPort", "timeSinceLastHeartbeat", "slotsNumber",
                "freeSlots", "hardware");
        assertThat(tm).containsEntry("id", "tm-1").containsEntry("dataPort", 6121L).containsEntry("freeSlots", 2L);
        assertThat(obj(tm.get("hardware"))).containsEntry("cpuCores", 2L).containsEntry("physicalMemory", 8L << 30);
    }

    @Test
    void jobsAndOverview() throws Exception {
        assertThat(list(get("/jobs").get("jobs")))
                .containsExactly(Map.of("id", JOB.toHexString(), "status", "RUNNING"));
        Map<String, Object> j = obj(list(get("/jobs/overview").get("jobs")).get(0));
        assertThat(j).containsOnlyKeys("jid", "name", "start-time", "end-time", "duration", "state",
                "last-modification", "tasks");
        assertThat(j).containsEntry("jid", JOB.toHexString()).containsEntry("end-time", -1L)
                .containsEntry("state", "RUNNING");
        assertThat(obj(j.get("tasks"))).containsEntry("running", 4L).containsEntry("deploying", 1L)
                .containsEntry("failed", 0L).containsEntry("total", 5L)
                .containsKeys("created", "scheduled", "finished", "canceling", "canceled", "reconciling",
                        "initializing");
    }

    @Test
    void jobDetailsWithVerticesPlanAndEdges() throws Exception {
        Map<String, Object> d = get(job);
        assertThat(d).containsKeys("jid", "name", "isStoppable", "state", "start-time", "end-time", "duration",
                "maxParallelism", "now", "timestamps", "vertices", "status-counts", "plan", "edges");
        assertThat(d).containsEntry("duration", 10_000L).containsEntry("maxParallelism", 128L);
        assertThat(obj(d.get("status-counts"))).containsEntry("RUNNING", 3L);

        Map<String, Object> sum = obj(list(d.get("vertices")).get(2));
        assertThat(sum).containsKeys("id", "name", "maxParallelism", "parallelism", "status", "start-time",
                "end-time", "duration", "tasks", "metrics");
        assertThat(sum).containsEntry("id", "v3").containsEntry("parallelism", 2L).containsEntry("busyRatio", 0.97)
                .containsEntry("backPressuredRatio", 0.02).containsEntry("recordsInPerSecond", 5000.0)
                .containsEntry("operators", List.of("Sum", "Print to Std. Out"));
        assertThat(obj(sum.get("tasks"))).containsEntry("RUNNING", 1L).containsEntry("DEPLOYING", 1L)
                .containsEntry("FAILED", 0L);
        assertThat(obj(sum.get("metrics"))).containsEntry("read-records", 25000L)
                .containsEntry("read-bytes", 300000L).containsEntry("write-bytes", 0L)
                .containsKeys("write-records", "read-records-complete", "write-bytes-complete");

        Map<String, Object> plan = obj(d.get("plan"));
        assertThat(plan).containsEntry("jid", JOB.toHexString()).containsEntry("type", "STREAMING");
        Map<String, Object> node = obj(list(plan.get("nodes")).get(2));
        assertThat(node).containsEntry("id", "v3").containsEntry("description", "Sum -> Print to Std. Out");
        assertThat(list(node.get("inputs"))).singleElement().satisfies(input -> assertThat(obj(input))
                .containsEntry("num", 0L).containsEntry("id", "v1").containsEntry("ship_strategy", "HASH")
                .containsKey("exchange"));
        assertThat(list(obj(list(plan.get("nodes")).get(0)).get("inputs"))).isEmpty();

        assertThat(get(job + "/plan")).containsOnly(Map.entry("plan", plan));
        assertThat(list(d.get("edges"))).containsExactly(
                Map.of("source", "v0", "target", "v1", "partitioner", "REBALANCE", "pattern", "ALL_TO_ALL"),
                Map.of("source", "v1", "target", "v3", "partitioner", "HASH", "pattern", "ALL_TO_ALL"));
    }

    @Test
    void vertexSubtasks() throws Exception {
        Map<String, Object> v = get(job + "/vertices/v3");
        assertThat(v).containsKeys("id", "name", "parallelism", "maxParallelism", "now", "subtasks");
        assertThat(list(v.get("subtasks"))).extracting(s -> obj(s).get("status")).containsExactly("RUNNING",
                "DEPLOYING");
    }

    @Test
    void backPressure() throws Exception {
        Map<String, Object> bp = get(job + "/vertices/v1/backpressure");
        assertThat(bp).containsOnlyKeys("status", "backpressure-level", "end-timestamp", "subtasks");
        assertThat(bp).containsEntry("backpressure-level", "high").containsEntry("status", "ok");
        List<Object> subtasks = list(bp.get("subtasks"));
        assertThat(obj(subtasks.get(0))).containsOnlyKeys("subtask", "attempt-number", "backpressure-level",
                "ratio", "idleRatio", "busyRatio").containsEntry("ratio", 0.88).containsEntry("backpressure-level",
                "high");
        assertThat(obj(subtasks.get(1))).containsEntry("subtask", 1L).containsEntry("backpressure-level", "low");
        assertThat(get(job + "/vertices/v3/backpressure")).containsEntry("backpressure-level", "ok");
    }

    @Test
    void checkpoints() throws Exception {
        Map<String, Object> c = get(job + "/checkpoints");
        assertThat(c).containsOnlyKeys("counts", "summary", "latest", "history");
        assertThat(obj(c.get("counts"))).containsOnly(Map.entry("restored", 0L), Map.entry("total", 3L),
                Map.entry("in_progress", 1L), Map.entry("completed", 1L), Map.entry("failed", 1L));
        Map<String, Object> latest = obj(c.get("latest"));
        assertThat(latest).containsKeys("completed", "savepoint", "failed", "restored");
        assertThat(obj(latest.get("completed"))).containsEntry("id", 1L).containsEntry("external_path",
                "file:/tmp/chk-1").containsEntry("className", "completed");
        assertThat(latest.get("savepoint")).isNull();
        assertThat(obj(latest.get("failed"))).containsEntry("failure_message", "Checkpoint expired before completing");
        List<Object> history = list(c.get("history"));
        assertThat(history).extracting(h -> obj(h).get("className")).containsExactly("in_progress", "failed",
                "completed");
        assertThat(obj(history.get(2))).containsKeys("id", "status", "is_savepoint", "trigger_timestamp",
                "latest_ack_timestamp", "state_size", "end_to_end_duration", "num_subtasks",
                "num_acknowledged_subtasks", "checkpoint_type").containsEntry("state_size", 4096L);
        assertThat(obj(obj(c.get("summary")).get("end_to_end_duration"))).containsEntry("max", 200L);
    }

    @Test
    void exceptions() throws Exception {
        Map<String, Object> e = get(job + "/exceptions");
        Map<String, Object> history = obj(e.get("exceptionHistory"));
        assertThat(history).containsEntry("truncated", false);
        Map<String, Object> entry = obj(list(history.get("entries")).get(0));
        assertThat(entry).containsKeys("exceptionName", "stacktrace", "timestamp", "taskName", "location",
                "concurrentExceptions");
        assertThat(entry).containsEntry("exceptionName", "java.lang.IllegalStateException")
                .containsEntry("taskName", "Sum -> Print to Std. Out (1/2)");
        List<Object> concurrent = list(entry.get("concurrentExceptions"));
        assertThat(concurrent).hasSize(1);
        assertThat(obj(concurrent.get(0)))
                .containsEntry("exceptionName", "dev.runnel.runtime.network.netty.ChannelFailedException")
                .containsEntry("taskName", "Source (1/2)").containsKeys("stacktrace", "timestamp", "location")
                .doesNotContainKey("concurrentExceptions");
    }

    @Test
    void executionResultWhileRunningAndAfterCancel() throws Exception {
        assertThat(get(job + "/execution-result")).containsOnly(Map.entry("status", Map.of("id", "IN_PROGRESS")));
        assertThat(fixture.client.send("PATCH", job + "?mode=cancel", null).status()).isEqualTo(202);
        Map<String, Object> r = get(job + "/execution-result");
        assertThat(r).containsEntry("status", Map.of("id", "COMPLETED"));
        assertThat(obj(r.get("job-execution-result"))).containsEntry("id", JOB.toHexString())
                .containsEntry("application-status", "CANCELED").containsEntry("net-runtime", 9000L)
                .containsEntry("accumulator-results", Map.of("records", "25000"));
    }
}
