package dev.runnel.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.BindMode;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.images.builder.ImageFromDockerfile;
import org.testcontainers.junit.jupiter.Testcontainers;

/**
 * {@link DistClusterIT}'s scenario in containers: the packaged distribution in a locally built image (on the
 * base image {@code .ci/docker-up.sh} makes with debootstrap; no registry is reachable), a JobManager and three
 * TaskManagers each in its own container on the host's loopback network, WordCount at parallelism 4 submitted
 * with the CLI, a checkpointed job that survives a TaskManager container killed with SIGKILL, and a savepoint,
 * cancel and resubmission at another parallelism that continues every key. Skips, with
 * the reason, where no Docker engine runs or the base image is missing.
 */
@Testcontainers(disabledWithoutDocker = true)
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class ClusterContainersIT {

    static final String BASE_IMAGE = "runnel-base:bookworm-jre17";
    private static final Pattern COUNT = Pattern.compile("\\(([^,()]+),(\\d+)\\)\\s*$");

    @TempDir
    Path work;

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private int restPort;

    @Test
    void theDistributionRunsAndRecoversInContainers() throws Exception {
        Assumptions.assumeTrue(baseImagePresent(), "the base image " + BASE_IMAGE
                + " is missing; .ci/docker-up.sh builds it (debootstrap) where Docker can run");
        Path dist = Path.of(System.getProperty("runnel.dist.dir"));
        assertThat(dist.resolve("bin/start-cluster.sh")).exists();
        Path conf = configure(dist);
        ImageFromDockerfile image = new ImageFromDockerfile("runnel-dist-it", false)
                .withFileFromPath("runnel", dist)
                .withDockerfileFromBuilder(b -> b.from(BASE_IMAGE).copy("runnel", "/opt/runnel").workDir("/opt/runnel")
                        .build());
        List<GenericContainer<?>> containers = new ArrayList<>();
        try {
            GenericContainer<?> jobManager = container(image, conf, "bin/jobmanager.sh");
            jobManager.start();
            containers.add(jobManager);
            waitUntil(() -> overview().contains("\"taskmanagers\":0"), 90_000, "the JobManager's REST API");
            for (int i = 0; i < 3; i++) {
                GenericContainer<?> taskManager = container(image, conf, "bin/taskmanager.sh");
                taskManager.start();
                containers.add(taskManager);
            }
            waitUntil(() -> overview().contains("\"taskmanagers\":3"), 90_000, "three TaskManagers registered");

            Result wordCount = cli(dist, conf, "run", "-p", "4", dist.resolve("examples/WordCount.jar").toString());
            assertThat(wordCount.exit()).as(wordCount.output()).isZero();
            Map<String, Integer> counts = lastCounts(containers, "");
            assertThat(counts.get("to")).isEqualTo(wordCountOf("to"));
            assertThat(counts.get("be")).isEqualTo(wordCountOf("be"));

            long records = 150_000;
            Path jar = UserJars.countingJobJar(work);
            Result submitted = cli(dist, conf, "run", "-d", "-p", "4", jar.toString(), "--records",
                    Long.toString(records), "--checkpoint-interval", "200", "--label", "c");
            assertThat(submitted.exit()).as(submitted.output()).isZero();
            Matcher id = Pattern.compile("JobID ([0-9a-f]{32})").matcher(submitted.output());
            assertThat(id.find()).isTrue();
            String jobId = id.group(1);
            waitUntil(() -> get("/jobs/" + jobId + "/checkpoints").matches("(?s).*\"completed\"\\s*:\\s*[2-9].*"),
                    120_000, "two completed checkpoints");
            GenericContainer<?> victim = containers.stream().skip(1).filter(c -> c.getLogs().contains("(c"))
                    .findFirst().orElseThrow();
            DockerClientFactory.instance().client().killContainerCmd(victim.getContainerId()).withSignal("KILL").exec();
            waitUntil(() -> get("/jobs/" + jobId).replace(" ", "").matches("(?s).*\"state\":\"(FINISHED|FAILED|CANCELED)\".*"),
                    240_000, "the job ending");

            assertThat(get("/jobs/" + jobId).replace(" ", "")).contains("\"state\":\"FINISHED\"");
            Map<String, Integer> recovered = lastCounts(containers, "c");
            for (int key = 0; key < 40; key++) {
                long expected = records / 40 + (key < records % 40 ? 1 : 0);
                assertThat(recovered.get("c" + key)).as("key c%s", key).isEqualTo((int) expected);
            }

            // Savepoint, cancel, and the same job resumed from it at another parallelism.
            long more = 400_000;
            Result second = cli(dist, conf, "run", "-d", "-p", "2", jar.toString(), "--records", Long.toString(more),
                    "--label", "s");
            Matcher secondId = Pattern.compile("JobID ([0-9a-f]{32})").matcher(second.output());
            assertThat(secondId.find()).as(second.output()).isTrue();
            waitUntil(() -> lastCounts(containers, "s").values().stream().mapToInt(Integer::intValue).sum() > 500,
                    60_000, "the second job counting");
            Result savepoint = cli(dist, conf, "savepoint", secondId.group(1), work.resolve("savepoints").toString());
            assertThat(savepoint.exit()).as(savepoint.output()).isZero();
            Matcher path = Pattern.compile("Savepoint completed\\. Path: (\\S+)").matcher(savepoint.output());
            assertThat(path.find()).as(savepoint.output()).isTrue();
            Result cancel = cli(dist, conf, "cancel", secondId.group(1));
            assertThat(cancel.exit()).as(cancel.output()).isZero();
            Result resumed = cli(dist, conf, "run", "-p", "3", "-s", path.group(1), jar.toString(), "--records",
                    Long.toString(more), "--label", "s");
            assertThat(resumed.exit()).as(resumed.output()).isZero();
            Map<String, Integer> continued = lastCounts(containers, "s");
            for (int key = 0; key < 40; key++) {
                long expected = more / 40 + (key < more % 40 ? 1 : 0);
                assertThat(continued.get("s" + key)).as("key s%s", key).isEqualTo((int) expected);
            }
        } finally {
            for (GenericContainer<?> container : containers) {
                container.stop();
            }
        }
    }

    private static boolean baseImagePresent() {
        try {
            DockerClientFactory.instance().client().inspectImageCmd(BASE_IMAGE).exec();
            return true;
        } catch (RuntimeException e) {
            return false;
        }
    }

    private GenericContainer<?> container(ImageFromDockerfile image, Path conf, String script) {
        return new GenericContainer<>(image)
                .withNetworkMode("host")
                .withFileSystemBind(work.toString(), work.toString(), BindMode.READ_WRITE)
                .withEnv("RUNNEL_CONF_DIR", conf.toString())
                .withCommand(script, "start-foreground");
    }

    /** A configuration folder for the containers (shared by bind mount): free ports, a secret, shared checkpoints. */
    private Path configure(Path dist) throws IOException {
        Path conf = Files.createDirectories(work.resolve("conf"));
        try (Stream<Path> files = Files.list(dist.resolve("conf"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Files.copy(file, conf.resolve(file.getFileName()));
            }
        }
        restPort = freePort();
        String yaml = Files.readString(conf.resolve("runnel.yaml"))
                .replaceAll("(?m)^jobmanager\\.rpc\\.port:.*$", "jobmanager.rpc.port: " + freePort())
                .replaceAll("(?m)^rest\\.port:.*$", "rest.port: " + restPort)
                .replaceAll("(?m)^taskmanager\\.numberOfTaskSlots:.*$", "taskmanager.numberOfTaskSlots: 2")
                .replaceAll("(?m)^jobmanager\\.memory\\.process\\.size:.*$", "jobmanager.memory.process.size: 512m")
                .replaceAll("(?m)^taskmanager\\.memory\\.process\\.size:.*$", "taskmanager.memory.process.size: 640m");
        yaml += "\nsecurity.cluster.secret: containers-" + ProcessHandle.current().pid() + "-" + System.nanoTime()
                + "\nheartbeat.interval: 500 ms\nheartbeat.timeout: 10 s\nslot.request.timeout: 90 s\n"
                + "execution.checkpointing.dir: file://" + work.resolve("checkpoints") + "\n";
        Files.writeString(conf.resolve("runnel.yaml"), yaml);
        return conf;
    }

    private record Result(int exit, String output) {}

    /** The distribution's CLI on the host, against the JobManager in its container. */
    private Result cli(Path dist, Path conf, String... args) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(dist.resolve("bin/runnel").toString());
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("RUNNEL_CONF_DIR", conf.toString());
        Path output = Files.createTempFile(work, "cli-", ".out");
        builder.redirectOutput(output.toFile());
        Process process = builder.start();
        if (!process.waitFor(180, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(command + " did not end within 180 s:\n" + Files.readString(output));
        }
        return new Result(process.exitValue(), Files.readString(output));
    }

    private static int wordCountOf(String word) {
        int count = 0;
        for (String line : dev.runnel.examples.wordcount.WordCount.TEXT) {
            for (String w : line.toLowerCase(Locale.ROOT).split("\\W+")) {
                count += w.equals(word) ? 1 : 0;
            }
        }
        return count;
    }

    private static Map<String, Integer> lastCounts(List<GenericContainer<?>> containers, String label) {
        Map<String, Integer> counts = new HashMap<>();
        for (GenericContainer<?> container : containers.subList(1, containers.size())) {
            String logs = container.getLogs(); // also of a killed container: it is not removed until stop()
            for (String line : logs.split("\n")) {
                Matcher m = COUNT.matcher(line);
                if (m.find() && m.group(1).startsWith(label)) {
                    counts.merge(m.group(1), Integer.parseInt(m.group(2)), Math::max);
                }
            }
        }
        return counts;
    }

    private String get(String path) {
        try {
            HttpResponse<String> response = http.send(HttpRequest.newBuilder(
                    URI.create("http://127.0.0.1:" + restPort + path)).timeout(Duration.ofSeconds(5)).build(),
                    HttpResponse.BodyHandlers.ofString());
            return response.body();
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    private String overview() {
        return get("/overview").replace(" ", "");
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static void waitUntil(BooleanSupplier condition, long millis, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(200);
        }
    }
}
