package dev.runnel.runtime.rest;

import static dev.runnel.runtime.rest.InMemoryDispatcherGateway.JOB;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.core.execution.SavepointFormatType;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The actions: cancel, savepoint, stop, rescale (Flink's trigger/status protocol) and multipart submission. */
@Timeout(60)
class RestEndpointActionsTest {

    @TempDir
    Path uploads;
    private RestServerFixture fixture;
    private RestTestClient client;
    private final String job = "/jobs/" + JOB.toHexString();

    @BeforeEach
    void start() throws Exception {
        fixture = new RestServerFixture(uploads);
        client = fixture.client;
    }

    @AfterEach
    void stop() {
        fixture.close();
    }

    @Test
    void cancelAnswers202AndCancels() throws Exception {
        RestTestClient.Answer answer = client.send("PATCH", job + "?mode=cancel", null);
        assertThat(answer.status()).isEqualTo(202);
        assertThat(answer.json()).isEmpty();
        assertThat(fixture.gateway.states).containsEntry(JOB, "CANCELED");
        assertThat(client.send("PATCH", job, null).status()).as("mode is optional").isEqualTo(202);
    }

    @Test
    void cancelWithAnotherModeIs400() throws Exception {
        RestTestClient.Answer answer = client.send("PATCH", job + "?mode=stop", null);
        assertThat(answer.status()).isEqualTo(400);
        assertThat(answer.error()).contains("'stop'", "/stop");
        assertThat(fixture.gateway.states).containsEntry(JOB, "RUNNING");
    }

    @Test
    void savepointTriggerThenStatusUntilCompleted() throws Exception {
        RestTestClient.Answer trigger = client.send("POST", job + "/savepoints",
                "{\"target-directory\": \"/tmp/sp\", \"cancel-job\": true, \"formatType\": \"NATIVE\"}");
        assertThat(trigger.status()).isEqualTo(202);
        String triggerId = (String) trigger.json().get("request-id");
        assertThat(triggerId).matches("[0-9a-f]{32}");
        assertThat(fixture.gateway.savepoints).containsExactly(new InMemoryDispatcherGateway.SavepointCall(JOB,
                "/tmp/sp", SavepointFormatType.NATIVE, true, false));

        assertThat(client.get(job + "/savepoints/" + triggerId).json())
                .containsOnly(Map.entry("status", Map.of("id", "IN_PROGRESS")));
        fixture.gateway.pendingSavepoint.complete("file:/tmp/sp/savepoint-1");
        assertThat(client.get(job + "/savepoints/" + triggerId).json()).containsOnly(
                Map.entry("status", Map.of("id", "COMPLETED")),
                Map.entry("operation", Map.of("location", "file:/tmp/sp/savepoint-1")));
    }

    @Test
    void savepointFailureIsReportedAsFailureCause() throws Exception {
        String triggerId = (String) client.send("POST", job + "/savepoints", "{}").json().get("request-id");
        assertThat(fixture.gateway.savepoints.get(0).format()).isEqualTo(SavepointFormatType.CANONICAL);
        fixture.gateway.pendingSavepoint.completeExceptionally(new IllegalStateException("disk full"));
        Map<String, Object> status = client.get(job + "/savepoints/" + triggerId).json();
        assertThat(status).containsEntry("status", Map.of("id", "COMPLETED"));
        @SuppressWarnings("unchecked")
        Map<String, Object> cause = (Map<String, Object>) ((Map<String, Object>) status.get("operation"))
                .get("failure-cause");
        assertThat(cause).containsEntry("class", "java.lang.IllegalStateException");
        assertThat((String) cause.get("stack-trace")).contains("disk full");
    }

    @Test
    void aGivenTriggerIdIsIdempotent() throws Exception {
        String body = "{\"triggerId\": \"00000000000000000000000000000042\"}";
        assertThat(client.send("POST", job + "/savepoints", body).json())
                .containsEntry("request-id", "00000000000000000000000000000042");
        client.send("POST", job + "/savepoints", body);
        assertThat(fixture.gateway.savepoints).hasSize(1);
    }

    @Test
    void stopWithSavepointReportsUnderTheSavepointPath() throws Exception {
        RestTestClient.Answer trigger = client.send("POST", job + "/stop",
                "{\"targetDirectory\": \"/tmp/stop\", \"drain\": true}");
        assertThat(trigger.status()).isEqualTo(202);
        assertThat(fixture.gateway.savepoints).containsExactly(new InMemoryDispatcherGateway.SavepointCall(JOB,
                "/tmp/stop", SavepointFormatType.CANONICAL, true, true));
        fixture.gateway.pendingSavepoint.complete("file:/tmp/stop/savepoint-2");
        assertThat(client.get(job + "/savepoints/" + trigger.json().get("request-id")).json())
                .containsEntry("operation", Map.of("location", "file:/tmp/stop/savepoint-2"));
    }

    @Test
    void rescaleTriggerThenStatus() throws Exception {
        RestTestClient.Answer trigger = client.send("POST", job + "/rescaling?parallelism=3", null);
        assertThat(trigger.status()).isEqualTo(202);
        assertThat(fixture.gateway.rescales).containsExactly(3);
        String status = job + "/rescaling/" + trigger.json().get("request-id");
        assertThat(client.get(status).json()).containsOnly(Map.entry("status", Map.of("id", "IN_PROGRESS")));
        fixture.gateway.pendingRescale.complete(null);
        assertThat(client.get(status).json()).containsOnly(Map.entry("status", Map.of("id", "COMPLETED")),
                Map.entry("operation", Map.of()));
        assertThat(client.get(job + "/savepoints/" + trigger.json().get("request-id")).status())
                .as("a rescale is not a savepoint").isEqualTo(404);
    }

    @Test
    void rescaleNeedsAPositiveParallelism() throws Exception {
        assertThat(client.send("POST", job + "/rescaling", null).error()).contains("'parallelism' is missing");
        assertThat(client.send("POST", job + "/rescaling?parallelism=two", null).error()).contains("'two'");
        RestTestClient.Answer zero = client.send("POST", job + "/rescaling?parallelism=0", null);
        assertThat(zero.status()).isEqualTo(400);
        assertThat(zero.error()).contains("at least 1");
        assertThat(fixture.gateway.rescales).isEmpty();
    }

    @Test
    void submitMultipartJobGraphAndJar() throws Exception {
        byte[] graph = {1, 2, 3, 4};
        byte[] jar = "PK-not-really-a-jar".getBytes(StandardCharsets.UTF_8);
        RestTestClient.Multipart body = new RestTestClient.Multipart()
                .field("request", "{\"jobGraphFileName\": \"job.graph\", \"jobJarFileNames\": [\"wordcount.jar\"],"
                        + " \"jobArtifactFileNames\": []}", "application/json")
                .file("file_0", "job.graph", graph)
                .file("file_1", "wordcount.jar", jar);
        RestTestClient.Answer answer = client.send("POST", "/jobs", HttpRequest.BodyPublishers.ofByteArray(
                body.bytes()), body.contentType());
        assertThat(answer.status()).as(answer.body()).isEqualTo(202);
        String jobUrl = (String) answer.json().get("jobUrl");
        assertThat(jobUrl).matches("/jobs/[0-9a-f]{32}");

        InMemoryDispatcherGateway.Submission submission = fixture.gateway.submissions.get(0);
        assertThat(submission.jobGraph()).containsExactly(graph);
        assertThat(submission.jarContents()).singleElement().isEqualTo(jar);
        Path stored = submission.jars().get(0);
        assertThat(stored.getFileName().toString()).isEqualTo("wordcount.jar");
        assertThat(stored.toAbsolutePath().startsWith(uploads.toAbsolutePath())).isTrue();
        assertThat(Files.readAllBytes(stored)).isEqualTo(jar);
        assertThat(client.get(jobUrl).status()).as("the new job is there").isEqualTo(200);
    }

    @Test
    void submitWithTheRequestAsAFilePartAndNoJars() throws Exception {
        RestTestClient.Multipart body = new RestTestClient.Multipart()
                .file("request", "blob", "{\"jobGraphFileName\": \"g\"}".getBytes(StandardCharsets.UTF_8))
                .file("g", "g", new byte[] {7});
        RestTestClient.Answer answer = client.send("POST", "/jobs", HttpRequest.BodyPublishers.ofByteArray(
                body.bytes()), body.contentType());
        assertThat(answer.status()).as(answer.body()).isEqualTo(202);
        assertThat(fixture.gateway.submissions.get(0).jars()).isEmpty();
    }

    @Test
    void submissionErrorsAre400WithWhatWasWrong() throws Exception {
        assertThat(submit(new RestTestClient.Multipart().file("file_0", "job.graph", new byte[] {1})).error())
                .contains("no part 'request'");
        assertThat(submit(new RestTestClient.Multipart().field("request", "{\"jobGraphFileName\": \"job.graph\"",
                null)).error()).contains("not a JSON object");
        assertThat(submit(new RestTestClient.Multipart().field("request", "{\"jobJarFileNames\": []}", null))
                .error()).contains("'jobGraphFileName'");
        assertThat(submit(new RestTestClient.Multipart().field("request", "{\"jobGraphFileName\": \"job.graph\","
                + " \"jobJarFileNames\": [\"missing.jar\"]}", null).file("f", "job.graph", new byte[] {1})).error())
                .contains("'missing.jar'");
        assertThat(submit(new RestTestClient.Multipart().field("request", "{\"jobGraphFileName\": \"g\","
                + " \"jobJarFileNames\": [\"../evil.jar\"]}", null).file("f", "g", new byte[] {1})
                .file("j", "../evil.jar", new byte[] {1})).error()).contains("not a plain file name");
        assertThat(submit(new RestTestClient.Multipart().field("request", "{\"jobGraphFileName\": \"g\"}", null)
                .file("f", "g", new byte[0])).error()).as("the gateway's IllegalArgumentException")
                .isEqualTo("the job graph is empty");
        RestTestClient.Answer json = client.send("POST", "/jobs", "{\"jobGraphFileName\": \"g\"}");
        assertThat(json.status()).isEqualTo(400);
        assertThat(json.error()).contains("multipart/form-data");
        assertThat(fixture.gateway.submissions).isEmpty();
        try (var left = Files.list(uploads)) {
            assertThat(left).as("failed submissions leave no upload behind").isEmpty();
        }
    }

    private RestTestClient.Answer submit(RestTestClient.Multipart body) throws Exception {
        RestTestClient.Answer answer = client.send("POST", "/jobs", HttpRequest.BodyPublishers.ofByteArray(
                body.bytes()), body.contentType());
        assertThat(answer.status()).as(answer.body()).isEqualTo(400);
        return answer;
    }
}
