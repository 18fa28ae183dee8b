package dev.runnel.runtime.rest;

import static dev.runnel.runtime.rest.InMemoryDispatcherGateway.JOB;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.configuration.MemorySize;
import dev.runnel.configuration.RestOptions;
import java.net.http.HttpRequest;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** Bad requests get Flink's error body with the right status; the token and the loopback rule hold. */
@Timeout(60)
class RestEndpointErrorsTest {

    @TempDir
    Path uploads;

    @Test
    void malformedIdsUnknownJobsPathsAndMethods() throws Exception {
        try (RestServerFixture f = new RestServerFixture(uploads)) {
            RestTestClient.Answer malformed = f.client.get("/jobs/not-a-job-id");
            assertThat(malformed.status()).isEqualTo(400);
            assertThat(malformed.error()).isEqualTo("the job id 'not-a-job-id' is not 32 hexadecimal digits");
            assertThat(f.client.get("/jobs/0123456789abcdef0123456789abcdeZ").status()).isEqualTo(400);

            String unknown = "/jobs/ffffffffffffffffffffffffffffffff";
            for (String path : new String[] {unknown, unknown + "/checkpoints", unknown + "/exceptions",
                    unknown + "/execution-result", unknown + "/vertices/v1/backpressure"}) {
                RestTestClient.Answer answer = f.client.get(path);
                assertThat(answer.status()).as(path).isEqualTo(404);
                assertThat(answer.error()).isEqualTo("Job ffffffffffffffffffffffffffffffff not found");
            }
            assertThat(f.client.send("PATCH", unknown, null).status()).isEqualTo(404);
            assertThat(f.client.send("POST", unknown + "/savepoints", "{}").status()).isEqualTo(404);
            RestTestClient.Answer noVertex = f.client.get("/jobs/" + JOB + "/vertices/v9/backpressure");
            assertThat(noVertex.status()).isEqualTo(404);
            assertThat(noVertex.error()).contains("no vertex 'v9'");
            RestTestClient.Answer noTrigger = f.client.get("/jobs/" + JOB + "/savepoints/" + JOB);
            assertThat(noTrigger.status()).isEqualTo(404);
            assertThat(noTrigger.error()).contains("no savepoint operation");

            RestTestClient.Answer path = f.client.get("/no/such/path");
            assertThat(path.status()).isEqualTo(404);
            assertThat(path.error()).isEqualTo("Not found: /no/such/path");

            RestTestClient.Answer method = f.client.send("DELETE", "/jobs/overview", null);
            assertThat(method.status()).isEqualTo(405);
            assertThat(method.error()).contains("DELETE", "GET");
            assertThat(method.response().headers().firstValue("Allow")).hasValue("GET");
            assertThat(f.client.send("POST", "/overview", "{}").status()).isEqualTo(405);
        }
    }

    @Test
    void malformedBodies() throws Exception {
        try (RestServerFixture f = new RestServerFixture(uploads)) {
            String savepoints = "/jobs/" + JOB + "/savepoints";
            RestTestClient.Answer json = f.client.send("POST", savepoints, "{\"target-directory\": ");
            assertThat(json.status()).isEqualTo(400);
            assertThat(json.error()).startsWith("the request body is not valid JSON: malformed JSON at offset");
            assertThat(f.client.send("POST", savepoints, "[1]").error()).contains("expected a JSON object");
            assertThat(f.client.send("POST", savepoints, "{\"cancel-job\": \"yes\"}").error())
                    .isEqualTo("the field 'cancel-job' must be true or false");
            assertThat(f.client.send("POST", savepoints, "{\"formatType\": \"ZIP\"}").error())
                    .isEqualTo("the formatType 'ZIP' is not one of CANONICAL, NATIVE");
            assertThat(f.client.send("POST", savepoints, "{\"triggerId\": \"42\"}").error())
                    .contains("triggerId '42'");
            assertThat(f.gateway.savepoints).isEmpty();
        }
    }

    @Test
    void bodiesBeyondTheLimitAre413() throws Exception {
        Configuration small = new Configuration();
        small.set(RestOptions.SERVER_MAX_CONTENT_LENGTH, MemorySize.ofBytes(1024));
        try (RestServerFixture f = new RestServerFixture(uploads, small, null)) {
            RestTestClient.Answer answer = f.client.send("POST", "/jobs", HttpRequest.BodyPublishers.ofByteArray(
                    new byte[4096]), "multipart/form-data; boundary=x");
            assertThat(answer.status()).isEqualTo(413);
            assertThat(answer.error()).contains("1024 bytes", "rest.server.max-content-length");
        }
    }

    @Test
    void anAnswerLaterThanWebTimeoutIs504() throws Exception {
        Configuration shortTimeout = new Configuration();
        shortTimeout.set(RestOptions.WEB_TIMEOUT, java.time.Duration.ofMillis(300));
        try (RestServerFixture f = new RestServerFixture(uploads, shortTimeout, null)) {
            f.gateway.cancelAnswer = new java.util.concurrent.CompletableFuture<>();
            RestTestClient.Answer answer = f.client.send("PATCH", "/jobs/" + JOB, null);
            assertThat(answer.status()).isEqualTo(504);
            assertThat(answer.error()).isEqualTo("the JobManager did not answer PATCH /jobs/" + JOB
                    + " within 300 ms (web.timeout)");
        }
    }

    @Test
    void aJobGoneBeforeTheActionIs404() throws Exception {
        try (RestServerFixture f = new RestServerFixture(uploads)) {
            f.gateway.cancelAnswer = java.util.concurrent.CompletableFuture.failedFuture(
                    new java.util.NoSuchElementException("No job with id " + JOB));
            RestTestClient.Answer answer = f.client.send("PATCH", "/jobs/" + JOB, null);
            assertThat(answer.status()).isEqualTo(404);
            assertThat(answer.error()).isEqualTo("No job with id " + JOB);
        }
    }

    @Test
    void aConfiguredTokenIsRequiredEvenOnLoopback() throws Exception {
        Configuration withToken = new Configuration();
        withToken.set(RestOptions.AUTH_TOKEN, "s3cret");
        try (RestServerFixture f = new RestServerFixture(uploads, withToken, null)) {
            RestTestClient.Answer none = f.client.get("/overview");
            assertThat(none.status()).isEqualTo(401);
            assertThat(none.error()).contains("Authorization: Bearer", "rest.auth.token");
            assertThat(none.response().headers().firstValue("WWW-Authenticate")).isPresent();
            RestTestClient wrong = new RestTestClient(f.server.url(), "s3cres");
            assertThat(wrong.get("/jobs/overview").status()).isEqualTo(401);
            assertThat(wrong.send("PATCH", "/jobs/" + JOB, null).status()).isEqualTo(401);
            assertThat(f.gateway.states).containsEntry(JOB, "RUNNING");
            assertThat(wrong.get("/no/such/path").status()).as("no route probing without the token").isEqualTo(401);

            RestTestClient right = new RestTestClient(f.server.url(), "s3cret");
            assertThat(right.get("/overview").status()).isEqualTo(200);
            assertThat(f.client.get("/").status()).as("the dashboard's static page holds no data").isEqualTo(200);
        }
    }

    @Test
    void refusesToBindBeyondLoopbackWithoutTokenOrTls() {
        Configuration open = new Configuration();
        open.set(RestOptions.BIND_ADDRESS, "0.0.0.0");
        open.set(RestOptions.PORT, 0);
        RestServerEndpoint server = new RestServerEndpoint(open, new InMemoryDispatcherGateway(), uploads);
        assertThatThrownBy(server::start).isInstanceOf(IllegalConfigurationException.class)
                .hasMessageContaining("0.0.0.0").hasMessageContaining("rest.auth.token")
                .hasMessageContaining("security.ssl.rest.enabled").hasMessageContaining("security.ssl.rest.keystore");
        server.close();
    }

    @Test
    void bindsBeyondLoopbackWithAToken() throws Exception {
        Configuration open = new Configuration();
        open.set(RestOptions.BIND_ADDRESS, "0.0.0.0");
        open.set(RestOptions.AUTH_TOKEN, "t0ken");
        try (RestServerFixture f = new RestServerFixture(uploads, open, "t0ken")) {
            assertThat(f.server.address().getAddress().isAnyLocalAddress()).isTrue();
            assertThat(f.client.get("/overview").status()).isEqualTo(200);
        }
    }

    @Test
    void tlsWithoutAKeyStoreNamesTheMissingKey() {
        Configuration tls = new Configuration();
        tls.set(RestOptions.SSL_REST_ENABLED, true);
        tls.set(RestOptions.PORT, 0);
        RestServerEndpoint server = new RestServerEndpoint(tls, new InMemoryDispatcherGateway(), uploads);
        assertThatThrownBy(server::start).isInstanceOf(IllegalConfigurationException.class)
                .hasMessage("security.ssl.rest.enabled is true, so security.ssl.rest.keystore must be set");
        server.close();
    }

    @Test
    void dashboardFiles() throws Exception {
        try (RestServerFixture f = new RestServerFixture(uploads)) {
            RestTestClient.Answer index = f.client.get("/");
            assertThat(index.status()).isEqualTo(200);
            assertThat(index.body()).contains("<script src=\"app.js\"");
            assertThat(index.response().headers().firstValue("Content-Type")).hasValue("text/html; charset=UTF-8");
            assertThat(index.response().headers().firstValue("Content-Security-Policy")).isPresent();
            assertThat(f.client.get("/app.js").response().headers().firstValue("Content-Type"))
                    .hasValue("text/javascript; charset=UTF-8");
            assertThat(f.client.get("/bottleneck.js").body()).contains("function findBottleneck");
            assertThat(f.client.get("/logback.xml").status()).as("only the web folder is served").isEqualTo(404);
            assertThat(f.client.get("/..%2Flogback.xml").status()).isEqualTo(404);
        }
    }
}
