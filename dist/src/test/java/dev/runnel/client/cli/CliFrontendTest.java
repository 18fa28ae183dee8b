package dev.runnel.client.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.client.program.ChildFirstClassLoader;
import dev.runnel.runtime.rest.json.JsonParser;
import dev.runnel.configuration.StateRecoveryOptions;
import dev.runnel.examples.wordcount.WordCount;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.graph.ExecutionPlan;
import dev.runnel.util.InstantiationUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bin/runnel} end to end in this JVM: argument parsing and its messages, every error of a bad jar, and
 * every command against a {@link FakeJobManager} that records what the CLI sent (the multipart submission is
 * taken apart and its JobGraph deserialized with the jar's class loader).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CliFrontendTest {

    private static final String JOB_ID = "0123456789abcdef0123456789abcdef";

    @TempDir
    static Path dir;

    /** A job whose classes exist only in its jar: a map at the default parallelism, so -p shows. */
    private static Path upperJar;
    private static Path noJobJar;
    private static Path failingJar;
    private static Path wordCountJar;

    @BeforeAll
    static void buildJars() throws IOException {
        upperJar = TestJars.compile(dir, dir.resolve("upper.jar"), Map.of("com.example.clitest.UpperJob", """
                package com.example.clitest;
                import dev.runnel.api.common.functions.MapFunction;
                import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
                public class UpperJob {
                    public static void main(String[] args) throws Exception {
                        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
                        env.fromElements(args).map(new Upper()).name("upper").print().name("print");
                        env.execute("upper " + String.join(" ", args));
                    }
                    public static final class Upper implements MapFunction<String, String> {
                        @Override public String map(String s) { return s.toUpperCase(); }
                    }
                }
                """), "com.example.clitest.UpperJob");
        noJobJar = TestJars.compile(dir, dir.resolve("nojob.jar"), Map.of("com.example.clitest.NoJob", """
                package com.example.clitest;
                public class NoJob {
                    public static void main(String[] args) { System.out.println("hello, no job"); }
                }
                """), "com.example.clitest.NoJob");
        failingJar = TestJars.compile(dir, dir.resolve("failing.jar"), Map.of("com.example.clitest.Failing", """
                package com.example.clitest;
                public class Failing {
                    public static void main(String[] args) { throw new IllegalStateException("bad arguments: none"); }
                }
                """), null);
        wordCountJar = TestJars.ofPackage(WordCount.class, dir.resolve("WordCount.jar"), WordCount.class.getName());
    }

    // ------------------------------------------------------------------ parsing

    @Test
    void withoutACommandItPrintsTheUsageAndExits2() {
        Result result = cli(Map.of());
        assertThat(result.status).isEqualTo(2);
        assertThat(result.err).contains("Missing a command").contains("Usage: runnel").contains("run")
                .contains("savepoint").contains("rescale");
    }

    @Test
    void wrongArgumentsSayWhatWasWrong() {
        assertThat(cli(Map.of(), "nonsense")).satisfies(r -> {
            assertThat(r.status).isEqualTo(2);
            assertThat(r.err).contains("Unmatched argument at index 0: 'nonsense'");
        });
        assertThat(cli(Map.of(), "cancel", "abc")).satisfies(r -> {
            assertThat(r.status).isEqualTo(2);
            assertThat(r.err).contains("'abc' is not a job id: a job id is 32 hex digits").contains("Usage: runnel cancel");
        });
        assertThat(cli(Map.of(), "cancel")).satisfies(r -> {
            assertThat(r.status).isEqualTo(2);
            assertThat(r.err).contains("Missing required parameter: '<jobId>'");
        });
        assertThat(cli(Map.of(), "rescale", JOB_ID)).satisfies(r -> {
            assertThat(r.status).isEqualTo(2);
            assertThat(r.err).contains("Missing required option: '--parallelism=N'");
        });
        assertThat(cli(Map.of(), "rescale", JOB_ID, "-p", "0")).satisfies(r -> {
            assertThat(r.status).isEqualTo(2);
            assertThat(r.err).contains("The parallelism (-p) must be at least 1, got 0");
        });
        assertThat(cli(Map.of(), "savepoint", JOB_ID, "--type", "fast")).satisfies(r -> {
            assertThat(r.status).isEqualTo(2);
            assertThat(r.err).contains("'fast' is not a savepoint format: use canonical");
        });
        assertThat(cli(Map.of(), "run")).satisfies(r -> {
            assertThat(r.status).isEqualTo(2);
            assertThat(r.err).contains("Missing required parameter: '<jar>'").contains("Usage: runnel run");
        });
        assertThat(cli(Map.of(), "run", "-p", "0", upperJar.toString())).satisfies(r -> {
            assertThat(r.status).isEqualTo(2);
            assertThat(r.err).contains("The parallelism (-p) must be at least 1, got 0");
        });
        assertThat(cli(Map.of(), "list", "-m", "nohostport")).satisfies(r -> {
            assertThat(r.status).isEqualTo(1);
            assertThat(r.err).contains("The JobManager address 'nohostport' is not host:port");
        });
    }

    @Test
    void helpOfACommandListsItsOptions() {
        Result result = cli(Map.of(), "run", "--help");
        assertThat(result.status).isZero();
        assertThat(result.out).contains("--parallelism").contains("--detached").contains("--fromSavepoint")
                .contains("--allowNonRestoredState").contains("--class").contains("-D=<key>=<value>");
    }

    // ------------------------------------------------------------------ bad jars

    @Test
    void everyProblemWithTheJarIsNamed() throws IOException {
        Path missing = dir.resolve("missing.jar");
        assertThat(cli(Map.of(), "run", missing.toString())).satisfies(r -> {
            assertThat(r.status).isEqualTo(1);
            assertThat(r.err.strip()).isEqualTo("The jar file " + missing + " does not exist.");
        });
        Path text = Files.writeString(dir.resolve("notes.jar"), "not a zip");
        assertThat(cli(Map.of(), "run", text.toString()).err).contains("The file " + text + " is not a jar file");
        assertThat(cli(Map.of(), "run", dir.toString()).err).contains("is not a readable file");
        assertThat(cli(Map.of(), "run", failingJar.toString())).satisfies(r -> {
            assertThat(r.status).isEqualTo(1);
            assertThat(r.err).contains("No main class: the jar " + failingJar + " has no Main-Class in its manifest. "
                    + "Name the class with -c");
        });
        assertThat(cli(Map.of(), "run", "-c", "com.example.Nowhere", upperJar.toString()).err)
                .contains("The main class 'com.example.Nowhere' was not found in " + upperJar);
        assertThat(cli(Map.of(), "run", "-c", "com.example.clitest.UpperJob$Upper", upperJar.toString()).err)
                .contains("The main class 'com.example.clitest.UpperJob$Upper' has no 'public static void main(String[])'");
        assertThat(cli(Map.of(), "run", noJobJar.toString())).satisfies(r -> {
            assertThat(r.status).isEqualTo(1);
            assertThat(r.out).contains("hello, no job");
            assertThat(r.err).contains("The program did not call execute(): com.example.clitest.NoJob.main() "
                    + "returned without building a job.");
        });
        assertThat(cli(Map.of(), "run", "-c", "com.example.clitest.Failing", failingJar.toString())).satisfies(r -> {
            assertThat(r.status).isEqualTo(1);
            assertThat(r.err).contains("The program finished with the following exception")
                    .contains("The program's main method failed: java.lang.IllegalStateException: bad arguments: none");
        });
    }

    // ------------------------------------------------------------------ run

    @Test
    void runPostsTheJobGraphAndTheJarAndWaitsForTheResult() throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            AtomicInteger polls = new AtomicInteger();
            jm.on("POST /jobs", 202, "{\"jobUrl\":\"/jobs/" + JOB_ID + "\"}")
                    .on("GET /jobs/" + JOB_ID + "/execution-result", r -> switch (polls.incrementAndGet()) {
                        case 1 -> new FakeJobManager.Response(200, "{\"status\":{\"id\":\"IN_PROGRESS\"}}");
                        // Flink's UNKNOWN (and a missing status) mean not ended yet: the client polls on
                        case 2 -> new FakeJobManager.Response(200, "{\"status\":{\"id\":\"COMPLETED\"},"
                                + "\"job-execution-result\":{\"id\":\"" + JOB_ID + "\",\"application-status\":\"UNKNOWN\"}}");
                        default -> new FakeJobManager.Response(200, "{\"status\":{\"id\":\"COMPLETED\"},"
                                    + "\"job-execution-result\":{\"id\":\"" + JOB_ID + "\",\"application-status\":"
                                    + "\"SUCCEEDED\",\"accumulator-results\":{\"lines\":\"3\"},\"net-runtime\":1234}}");
                    });

            Result result = cli(Map.of(), "run", "-m", jm.hostPort(), "-p", "3", "-s", "/savepoints/sp-1", "-n",
                    "-D", "state.backend.type=rocksdb", "-Dpipeline.name=ignored", upperJar.toString(), "a", "b",
                    "--not-ours");

            assertThat(result.status).as(result.err).isZero();
            assertThat(result.out).startsWith("Job has been submitted with JobID " + JOB_ID + "\n")
                    .contains("Job with JobID " + JOB_ID + " has finished.").contains("Job Runtime: 1234 ms")
                    .contains("- lines: 3");
            assertThat(polls.get()).isEqualTo(3);

            Map<String, byte[]> parts = multipart(jm.only("POST", "/jobs"));
            assertThat(parts.keySet()).containsExactlyInAnyOrder("request", "job.graph", "upper.jar");
            Map<?, ?> request = (Map<?, ?>) JsonParser.parse(new String(parts.get("request"), StandardCharsets.UTF_8));
            assertThat(request.get("jobGraphFileName")).isEqualTo("job.graph");
            assertThat(request.get("jobJarFileNames")).isEqualTo(List.of("upper.jar"));
            assertThat(parts.get("upper.jar")).isEqualTo(Files.readAllBytes(upperJar));

            Path received = Files.write(dir.resolve("received.jar"), parts.get("upper.jar"));
            assertThatThrownBy(() -> InstantiationUtil.deserialize(parts.get("job.graph"),
                    getClass().getClassLoader(), "job graph")).as("the job's classes are only in its jar")
                    .hasRootCauseInstanceOf(ClassNotFoundException.class);
            try (ChildFirstClassLoader loader = new ChildFirstClassLoader(new URL[] {received.toUri().toURL()},
                    getClass().getClassLoader())) {
                JobGraph job = InstantiationUtil.deserialize(parts.get("job.graph"), loader, "job graph");
                assertThat(job.getJobName()).isEqualTo("upper a b --not-ours");
                assertThat(job.getVertices()).extracting(JobVertex::getParallelism).containsExactly(1, 3);
                assertThat(job.getVertices().get(1).getName()).isEqualTo("upper -> print");
                assertThat(job.getConfiguration().get(StateRecoveryOptions.SAVEPOINT_PATH)).isEqualTo("/savepoints/sp-1");
                assertThat(job.getConfiguration().get(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE)).isTrue();
                assertThat(job.getConfiguration().toMap()).containsEntry("state.backend.type", "rocksdb")
                        .containsEntry("pipeline.name", "ignored");
            }
        }
    }

    @Test
    void runSubmitsTheExampleWordCountAsTheExampleDefinesIt() throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            jm.on("POST /jobs", 202, "{\"jobUrl\":\"/jobs/" + JOB_ID + "\"}");

            Result result = cli(Map.of(), "run", "-d", "-p", "4", "-m", jm.hostPort(), wordCountJar.toString());

            assertThat(result.status).as(result.err).isZero();
            assertThat(result.out.strip()).isEqualTo("Job has been submitted with JobID " + JOB_ID);
            assertThat(jm.requests).as("detached: nothing after the submission").hasSize(1);
            Map<String, byte[]> parts = multipart(jm.only("POST", "/jobs"));
            Path received = Files.write(dir.resolve("received-wc.jar"), parts.get("WordCount.jar"));
            try (ChildFirstClassLoader loader = new ChildFirstClassLoader(new URL[] {received.toUri().toURL()},
                    getClass().getClassLoader())) {
                JobGraph job = InstantiationUtil.deserialize(parts.get("job.graph"), loader, "job graph");
                assertThat(ExecutionPlan.toJson(job)).isEqualTo(ExecutionPlan.toJson(wordCountAt(4)));
            }
        }
    }

    @Test
    void aFailedJobExitsWith1AndShowsTheClusterFailure() throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            jm.on("POST /jobs", 202, "{\"jobUrl\":\"/jobs/" + JOB_ID + "\"}")
                    .on("GET /jobs/" + JOB_ID + "/execution-result", 200, "{\"status\":{\"id\":\"COMPLETED\"},"
                            + "\"job-execution-result\":{\"id\":\"" + JOB_ID + "\",\"application-status\":\"FAILED\","
                            + "\"accumulator-results\":{},\"net-runtime\":5,\"failure-cause\":{\"class\":"
                            + "\"java.lang.ArithmeticException\",\"stack-trace\":\"java.lang.ArithmeticException: / by zero"
                            + "\\n\\tat com.example.Job.map(Job.java:3)\"}}}");

            Result result = cli(Map.of(), "run", "-m", jm.hostPort(), upperJar.toString(), "x");

            assertThat(result.status).isEqualTo(1);
            assertThat(result.out).contains("Job has been submitted with JobID " + JOB_ID);
            assertThat(result.err).contains("Job " + JOB_ID + " failed: java.lang.ArithmeticException: / by zero")
                    .contains("In the cluster:").contains("at com.example.Job.map(Job.java:3)");
        }
    }

    @Test
    void aRejectedSubmissionShowsTheJobManagersErrors() throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            jm.on("POST /jobs", 400, "{\"errors\":[\"The job needs 8 slots, the cluster has 4\"]}");
            Result result = cli(Map.of(), "run", "-m", jm.hostPort(), upperJar.toString(), "x");
            assertThat(result.status).isEqualTo(1);
            assertThat(result.err.strip()).isEqualTo("Cannot submit the job: the JobManager answered 400: "
                    + "The job needs 8 slots, the cluster has 4");
        }
    }

    @Test
    @Timeout(value = 5, unit = TimeUnit.SECONDS)
    void anUnreachableJobManagerIsReportedWithinSeconds() throws IOException {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        Result run = cli(Map.of(), "run", "-m", "127.0.0.1:" + port, upperJar.toString(), "x");
        assertThat(run.status).isEqualTo(1);
        assertThat(run.err.strip()).isEqualTo("Could not reach the JobManager at http://127.0.0.1:" + port
                + " (Connection refused). Is the cluster running? Start it with bin/start-cluster.sh");
        Result list = cli(Map.of(), "list", "-m", "127.0.0.1:" + port);
        assertThat(list.status).isEqualTo(1);
        assertThat(list.err).startsWith("Could not reach the JobManager at http://127.0.0.1:" + port);
    }

    // ------------------------------------------------------------------ info

    @Test
    void infoPrintsThePlanOfWordCountWithoutRunningIt() {
        Result result = cli(Map.of(), "info", "-p", "2", wordCountJar.toString());
        assertThat(result.status).as(result.err).isZero();
        assertThat(result.out.strip()).isEqualTo(ExecutionPlan.toJson(wordCountAt(2)).strip());
        Result programsOwn = cli(Map.of(), "info", "-p", "2", wordCountJar.toString(), "--parallelism", "3");
        assertThat(programsOwn.out.strip()).as("the program's own setParallelism wins over -p")
                .isEqualTo(ExecutionPlan.toJson(wordCountAt(3)).strip());
        assertThat(result.out).contains("\"notChainedBecause\": \"keyBy: KeyGroup partitioner\"");
    }

    @Test
    void infoOfAProgramWithoutAJobSaysSo() {
        Result result = cli(Map.of(), "info", noJobJar.toString());
        assertThat(result.status).isEqualTo(1);
        assertThat(result.err).contains("The program did not call execute()");
    }

    // ------------------------------------------------------------------ the other commands

    @Test
    void theConfigurationFileNamesTheJobManagerAndItsToken(@TempDir Path conf) throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            jm.on("GET /jobs/overview", 200, "{\"jobs\":[{\"jid\":\"" + JOB_ID + "\",\"name\":\"WordCount\",\"state\":"
                    + "\"RUNNING\",\"start-time\":1700000000000,\"end-time\":-1},{\"jid\":\"" + JOB_ID.replace('0', 'f')
                    + "\",\"name\":\"Old\",\"state\":\"FINISHED\",\"start-time\":1600000000000}]}");
            Files.writeString(conf.resolve("runnel.yaml"), "rest.address: 127.0.0.1\nrest.port: " + jm.port()
                    + "\nrest.auth.token: s3cret\n");

            Result result = cli(Map.of("RUNNEL_CONF_DIR", conf.toString()), "list");

            assertThat(result.status).as(result.err).isZero();
            assertThat(result.out).contains("Running/Restarting Jobs").contains(" : " + JOB_ID + " : WordCount (RUNNING)")
                    .contains("Terminated Jobs").contains(" : Old (FINISHED)");
            assertThat(jm.only("GET", "/jobs/overview").header("Authorization")).isEqualTo("Bearer s3cret");
        }
    }

    @Test
    void aMalformedConfigurationFileIsNamed(@TempDir Path conf) throws IOException {
        Files.writeString(conf.resolve("runnel.yaml"), "rest.port: 8081\nthis is not yaml\n");
        Result result = cli(Map.of("RUNNEL_CONF_DIR", conf.toString()), "list");
        assertThat(result.status).isEqualTo(1);
        assertThat(result.err.strip()).isEqualTo(conf.resolve("runnel.yaml") + " line 2: expected 'key: value', "
                + "found 'this is not yaml'");
    }

    @Test
    void cancelSendsFlinksPatchAndAnUnknownJobIsA404() throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            jm.on("PATCH /jobs/" + JOB_ID, 202, "{}");
            Result result = cli(Map.of(), "cancel", "-m", jm.hostPort(), JOB_ID.toUpperCase());
            assertThat(result.status).as(result.err).isZero();
            assertThat(result.out).contains("Cancelled job " + JOB_ID + ".");
            assertThat(jm.only("PATCH", "/jobs/" + JOB_ID).query()).isEqualTo("mode=cancel");

            String unknown = JOB_ID.replace('1', '2');
            jm.on("PATCH /jobs/" + unknown, 404, "{\"errors\":[\"Job " + unknown + " not found\"]}");
            Result missing = cli(Map.of(), "cancel", "-m", jm.hostPort(), unknown);
            assertThat(missing.status).isEqualTo(1);
            assertThat(missing.err.strip()).isEqualTo("Cannot cancel job " + unknown + ": the JobManager answered 404: Job "
                    + unknown + " not found");
        }
    }

    @Test
    void savepointTriggersAndPollsUntilThePathIsKnown() throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            AtomicInteger polls = new AtomicInteger();
            jm.on("POST /jobs/" + JOB_ID + "/savepoints", 202, "{\"request-id\":\"t-1\"}")
                    .on("GET /jobs/" + JOB_ID + "/savepoints/t-1", r -> polls.incrementAndGet() < 2
                            ? new FakeJobManager.Response(200, "{\"status\":{\"id\":\"IN_PROGRESS\"}}")
                            : new FakeJobManager.Response(200, "{\"status\":{\"id\":\"COMPLETED\"},\"operation\":"
                                    + "{\"location\":\"file:/sp/savepoint-0123\"}}"));

            Result result = cli(Map.of(), "savepoint", "-m", jm.hostPort(), JOB_ID, "/sp", "--type", "native");

            assertThat(result.status).as(result.err).isZero();
            assertThat(result.out).contains("Savepoint completed. Path: file:/sp/savepoint-0123");
            assertThat(JsonParser.parse(jm.only("POST", "/jobs/" + JOB_ID + "/savepoints").bodyText()))
                    .isEqualTo(Map.of("target-directory", "/sp", "cancel-job", false, "formatType", "NATIVE"));
        }
    }

    @Test
    void aFailedSavepointShowsItsCause() throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            jm.on("POST /jobs/" + JOB_ID + "/savepoints", 202, "{\"request-id\":\"t-2\"}")
                    .on("GET /jobs/" + JOB_ID + "/savepoints/t-2", 200, "{\"status\":{\"id\":\"COMPLETED\"},"
                            + "\"operation\":{\"failure-cause\":{\"class\":\"java.io.IOException\",\"stack-trace\":"
                            + "\"java.io.IOException: disk full\"}}}");
            Result result = cli(Map.of(), "savepoint", "-m", jm.hostPort(), JOB_ID);
            assertThat(result.status).isEqualTo(1);
            assertThat(result.err.strip()).isEqualTo("The savepoint of job " + JOB_ID
                    + " failed: java.io.IOException: disk full");
            assertThat(JsonParser.parse(jm.only("POST", "/jobs/" + JOB_ID + "/savepoints").bodyText()))
                    .isEqualTo(mapOf("target-directory", null, "cancel-job", false, "formatType", "CANONICAL"));
        }
    }

    @Test
    void stopPostsFlinksStopRequestAndWaitsForTheSavepoint() throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            jm.on("POST /jobs/" + JOB_ID + "/stop", 202, "{\"request-id\":\"s-1\"}")
                    .on("GET /jobs/" + JOB_ID + "/savepoints/s-1", 200, "{\"status\":{\"id\":\"COMPLETED\"},"
                            + "\"operation\":{\"location\":\"file:/sp/savepoint-stop\"}}");

            Result result = cli(Map.of(), "stop", "-m", jm.hostPort(), "--savepointPath", "/sp", "--drain", JOB_ID);

            assertThat(result.status).as(result.err).isZero();
            assertThat(result.out).contains("Savepoint completed. Path: file:/sp/savepoint-stop");
            assertThat(JsonParser.parse(jm.only("POST", "/jobs/" + JOB_ID + "/stop").bodyText()))
                    .isEqualTo(Map.of("targetDirectory", "/sp", "drain", true, "formatType", "CANONICAL"));
        }
    }

    @Test
    void rescalePostsTheParallelismAndWaitsUntilItCompleted() throws Exception {
        try (FakeJobManager jm = new FakeJobManager()) {
            AtomicInteger polls = new AtomicInteger();
            jm.on("POST /jobs/" + JOB_ID + "/rescaling", 202, "{\"request-id\":\"r-1\"}")
                    .on("GET /jobs/" + JOB_ID + "/rescaling/r-1", r -> new FakeJobManager.Response(200,
                            polls.incrementAndGet() < 2 ? "{\"status\":{\"id\":\"IN_PROGRESS\"}}"
                                    : "{\"status\":{\"id\":\"COMPLETED\"},\"operation\":{}}"));

            Result result = cli(Map.of(), "rescale", "-m", jm.hostPort(), JOB_ID, "-p", "6");

            assertThat(result.status).as(result.err).isZero();
            assertThat(result.out).contains("Rescaled job " + JOB_ID + ": every vertex now runs at parallelism 6.");
            assertThat(jm.only("POST", "/jobs/" + JOB_ID + "/rescaling").query()).isEqualTo("parallelism=6");
            assertThat(polls.get()).isEqualTo(2);
        }
    }

    @Test
    void portRewritesAFlinkProject(@TempDir Path project) throws IOException {
        Path source = Files.createDirectories(project.resolve("src/main/java/com/example")).resolve("Job.java");
        Files.writeString(source, "package com.example;\nimport org.apache.flink.streaming.api.environment."
                + "StreamExecutionEnvironment;\nclass Job {}\n");
        Result result = cli(Map.of(), "port", project.toString());
        assertThat(result.status).as(result.out + result.err).isZero();
        assertThat(Files.readString(source)).contains("import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;");
    }

    // ------------------------------------------------------------------ helpers

    private static JobGraph wordCountAt(int parallelism) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
        WordCount.counts(env.fromElements(WordCount.TEXT).name("built-in text")).print().name("print");
        return env.getJobGraph("WordCount");
    }

    private static Map<String, Object> mapOf(Object... keysAndValues) {
        Map<String, Object> map = new HashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            map.put((String) keysAndValues[i], keysAndValues[i + 1]);
        }
        return map;
    }

    /** The parts of a multipart/form-data request by name. */
    private static Map<String, byte[]> multipart(FakeJobManager.Request request) {
        String contentType = request.header("Content-Type");
        assertThat(contentType).startsWith("multipart/form-data; boundary=");
        String boundary = "--" + contentType.substring(contentType.indexOf("boundary=") + 9);
        String body = new String(request.body(), StandardCharsets.ISO_8859_1);
        Map<String, byte[]> parts = new LinkedHashMap<>();
        for (String part : body.split(java.util.regex.Pattern.quote(boundary))) {
            if (part.isEmpty() || part.startsWith("--")) {
                continue;
            }
            int headersEnd = part.indexOf("\r\n\r\n");
            String headers = part.substring(0, headersEnd);
            String name = headers.replaceAll("(?s).*name=\"([^\"]*)\".*", "$1");
            String content = part.substring(headersEnd + 4, part.length() - 2);
            parts.put(name, content.getBytes(StandardCharsets.ISO_8859_1));
        }
        return parts;
    }

    private record Result(int status, String out, String err) {}

    private static Result cli(Map<String, String> environment, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        PrintStream userOut = new PrintStream(out, true, StandardCharsets.UTF_8);
        System.setOut(userOut); // the user's program prints to System.out
        int status;
        try {
            status = CliFrontend.run(args, environment, userOut, new PrintStream(err, true, StandardCharsets.UTF_8));
        } finally {
            System.setOut(stdout);
        }
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
