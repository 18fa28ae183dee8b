package dev.runnel.dist;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
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
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The distribution as a user runs it: the tarball's folder, {@code bin/start-cluster.sh} with one JobManager and
 * two TaskManagers as processes, jobs submitted with {@code bin/runnel}, a TaskManager killed with SIGKILL while a
 * checkpointed job runs, a savepoint, cancel and resubmission at another parallelism, and
 * {@code bin/stop-cluster.sh} leaving no process behind. Runs in Maven's integration-test phase, after the
 * distribution is packaged ({@code runnel.dist.dir}).
 */
@Timeout(value = 8, unit = TimeUnit.MINUTES)
class DistClusterIT {

    private static final Pattern COUNT = Pattern.compile("\\(([^,()]+),(\\d+)\\)\\s*$");

    @TempDir
    Path work;

    private Path home;
    private Path pids;
    private int restPort;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    @Test
    void aClusterFromTheDistributionRunsRecoversRescalesAndStopsClean() throws Exception {
        install();
        try {
            long started = System.nanoTime();
            Result start = run(List.of("bin/start-cluster.sh"), 120);
            assertThat(start.exit()).as(start.output()).isZero();
            waitUntil(() -> overview().contains("\"taskmanagers\":2"), 60_000, "two TaskManagers registered");
            long readyMillis = (System.nanoTime() - started) / 1_000_000;
            System.out.println("RESULT workload=cluster-start taskmanagers=2 ready_ms=" + readyMillis);

            wordCountAtParallelismFour();
            Path jobJar = UserJars.countingJobJar(work);
            recoveryAfterSigkill(jobJar);
            savepointCancelAndResubmit(jobJar);
        } finally {
            Result stop = run(List.of("bin/stop-cluster.sh"), 60);
            assertThat(stop.exit()).as(stop.output()).isZero();
        }
        assertNoProcessLeft();
        Result again = run(List.of("bin/stop-cluster.sh"), 60);
        assertThat(again.exit()).isZero();
        assertThat(again.output().toLowerCase(Locale.ROOT)).contains("no ");
    }

    private void wordCountAtParallelismFour() throws Exception {
        Result result = run(List.of("bin/runnel", "run", "-p", "4", "examples/WordCount.jar"), 120);
        assertThat(result.exit()).as(result.output()).isZero();
        assertThat(result.output()).contains("Job has been submitted with JobID").contains("has finished");
        Map<String, Integer> counts = lastCounts("");
        Map<String, Integer> expected = new HashMap<>();
        for (String line : dev.runnel.examples.wordcount.WordCount.TEXT) {
            for (String word : line.toLowerCase(Locale.ROOT).split("\\W+")) {
                if (!word.isEmpty()) {
                    expected.merge(word, 1, Integer::sum);
                }
            }
        }
        for (Map.Entry<String, Integer> word : expected.entrySet()) {
            assertThat(counts.get(word.getKey())).as("word %s", word.getKey()).isEqualTo(word.getValue());
        }
    }

    private void recoveryAfterSigkill(Path jobJar) throws Exception {
        // A third TaskManager stands by, so that the job's four slots can be found again after a kill.
        Result third = run(List.of("bin/taskmanager.sh", "start"), 60);
        assertThat(third.exit()).as(third.output()).isZero();
        waitUntil(() -> overview().contains("\"taskmanagers\":3"), 60_000, "three TaskManagers registered");
        long records = 300_000;
        String jobId = submitDetached(jobJar, 4, "--records", Long.toString(records), "--checkpoint-interval", "200",
                "--label", "r");
        waitUntil(() -> completedCheckpoints(jobId) >= 2, 90_000, "two completed checkpoints");
        assertThat(get("/jobs/" + jobId).replace(" ", "")).contains("\"state\":\"RUNNING\"");
        int victim = taskManagerPrinting("(r");
        long pid = Long.parseLong(Files.readString(pidFile("taskmanager", victim)).trim());
        Result kill = run(List.of("kill", "-9", Long.toString(pid)), 10);
        assertThat(kill.exit()).isZero();
        awaitEnd(jobId, "FINISHED");
        assertExactCounts("r", records, 40);
        assertThat(get("/jobs/" + jobId + "/exceptions")).contains("lost");
    }

    private void savepointCancelAndResubmit(Path jobJar) throws Exception {
        long records = 600_000;
        String jobId = submitDetached(jobJar, 2, "--records", Long.toString(records), "--label", "s");
        waitUntil(() -> linesWith("(s") > 2_000, 60_000, "the job counting");
        dashboardShows(jobId);
        Result savepoint = run(List.of("bin/runnel", "savepoint", jobId, work.resolve("savepoints").toString()), 120);
        assertThat(savepoint.exit()).as(savepoint.output()).isZero();
        Matcher path = Pattern.compile("Savepoint completed\\. Path: (\\S+)").matcher(savepoint.output());
        assertThat(path.find()).as(savepoint.output()).isTrue();
        Result cancel = run(List.of("bin/runnel", "cancel", jobId), 60);
        assertThat(cancel.exit()).as(cancel.output()).isZero();
        awaitEnd(jobId, "CANCELED");
        Result list = run(List.of("bin/runnel", "list"), 30);
        assertThat(list.exit()).as(list.output()).isZero();

        Result resumed = run(List.of("bin/runnel", "run", "-p", "3", "-s", path.group(1), jobJar.toString(),
                "--records", Long.toString(records), "--label", "s"), 180);

        assertThat(resumed.exit()).as(resumed.output()).isZero();
        assertExactCounts("s", records, 40);
    }

    /** The dashboard's page of a running job, in headless Chromium: its two vertices and an edge between them. */
    private void dashboardShows(String jobId) throws Exception {
        if (!dev.runnel.runtime.rest.dashboard.DashboardCheck.available()) {
            System.out.println("Dashboard check skipped: " + dev.runnel.runtime.rest.dashboard.DashboardCheck.unavailableReason());
            return;
        }
        Path screenshot = Path.of(System.getProperty("runnel.dist.dir")).getParent().resolve("dashboard-cluster.png");
        var seen = dev.runnel.runtime.rest.dashboard.DashboardCheck.check(
                URI.create("http://127.0.0.1:" + restPort + "/#/jobs/" + jobId), null,
                new dev.runnel.runtime.rest.dashboard.DashboardCheck.Expected(
                        List.of("Sequence Source -> Map", "Map -> Print to Std. Out"), List.of("HASH · ALL_TO_ALL"), null),
                screenshot);
        assertThat(screenshot).exists();
        System.out.println("Dashboard of a running job on the cluster: " + seen);
    }

    // ------------------------------------------------------------------ the installation

    private void install() throws IOException {
        String dist = System.getProperty("runnel.dist.dir");
        assertThat(dist).as("system property runnel.dist.dir (set by the build)").isNotNull();
        Path source = Path.of(dist);
        assertThat(source.resolve("bin/start-cluster.sh")).as("the packaged distribution").exists();
        home = work.resolve("runnel");
        copy(source, home);
        pids = Files.createDirectories(work.resolve("pids"));
        restPort = freePort();
        int rpcPort = freePort();
        String conf = Files.readString(home.resolve("conf/runnel.yaml"))
                .replaceAll("(?m)^jobmanager\\.rpc\\.port:.*$", "jobmanager.rpc.port: " + rpcPort)
                .replaceAll("(?m)^rest\\.port:.*$", "rest.port: " + restPort)
                .replaceAll("(?m)^taskmanager\\.numberOfTaskSlots:.*$", "taskmanager.numberOfTaskSlots: 2")
                .replaceAll("(?m)^jobmanager\\.memory\\.process\\.size:.*$", "jobmanager.memory.process.size: 512m")
                .replaceAll("(?m)^taskmanager\\.memory\\.process\\.size:.*$", "taskmanager.memory.process.size: 640m");
        conf += "\nheartbeat.interval: 500 ms\nheartbeat.timeout: 10 s\nslot.request.timeout: 60 s\n"
                + "execution.checkpointing.dir: file://" + work.resolve("checkpoints") + "\n"
                + "io.tmp.dirs: " + Files.createDirectories(work.resolve("tmp")) + "\n";
        Files.writeString(home.resolve("conf/runnel.yaml"), conf);
        Files.writeString(home.resolve("conf/workers"), "localhost\nlocalhost\n");
    }

    private static void copy(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Path target = to.resolve(from.relativize(file).toString());
                if (Files.isDirectory(file)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(file, target, java.nio.file.StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }

    private static int freePort() throws IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    // ------------------------------------------------------------------ processes

    private record Result(int exit, String output) {}

    private Result run(List<String> command, long timeoutSeconds) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile()).redirectErrorStream(true);
        builder.environment().put("RUNNEL_PID_DIR", pids.toString());
        builder.environment().put("RUNNEL_CONF_DIR", home.resolve("conf").toString());
        Path output = Files.createTempFile(work, "cmd-", ".out");
        builder.redirectOutput(output.toFile());
        Process process = builder.start();
        if (!process.waitFor(timeoutSeconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw new AssertionError(command + " did not end within " + timeoutSeconds + " s:\n" + Files.readString(output));
        }
        return new Result(process.exitValue(), Files.readString(output));
    }

    private String submitDetached(Path jar, int parallelism, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bin/runnel", "run", "-d", "-p", Integer.toString(parallelism),
                jar.toString()));
        command.addAll(List.of(args));
        Result result = run(command, 60);
        assertThat(result.exit()).as(result.output()).isZero();
        Matcher id = Pattern.compile("JobID ([0-9a-f]{32})").matcher(result.output());
        assertThat(id.find()).as(result.output()).isTrue();
        return id.group(1);
    }

    private Path pidFile(String kind, int index) throws IOException {
        try (Stream<Path> files = Files.list(pids)) {
            return files.filter(f -> f.getFileName().toString().matches("runnel-.*-" + kind + "-" + index + "\\.pid"))
                    .findFirst().orElseThrow(() -> new AssertionError("no pid file of " + kind + " " + index));
        }
    }

    private void assertNoProcessLeft() throws IOException {
        try (Stream<Path> files = Files.list(pids)) {
            for (Path file : (Iterable<Path>) files::iterator) {
                long pid = Long.parseLong(Files.readString(file).trim());
                assertThat(ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false))
                        .as("process %s of %s", pid, file.getFileName()).isFalse();
            }
        }
    }

    // ------------------------------------------------------------------ REST and outputs

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + restPort + path))
                .timeout(Duration.ofSeconds(5)).build(), HttpResponse.BodyHandlers.ofString());
        return response.body();
    }

    private String overview() {
        try {
            return get("/overview").replace(" ", "");
        } catch (IOException | InterruptedException e) {
            return "";
        }
    }

    private int completedCheckpoints(String jobId) {
        try {
            Matcher completed = Pattern.compile("\"completed\"\\s*:\\s*(\\d+)").matcher(get("/jobs/" + jobId + "/checkpoints"));
            return completed.find() ? Integer.parseInt(completed.group(1)) : 0;
        } catch (IOException | InterruptedException e) {
            return 0;
        }
    }

    private void awaitEnd(String jobId, String state) throws Exception {
        waitUntil(() -> {
            try {
                String job = get("/jobs/" + jobId).replace(" ", "");
                return job.contains("\"state\":\"" + state + "\"") || job.contains("\"state\":\"FAILED\"")
                        || job.contains("\"state\":\"CANCELED\"") || job.contains("\"state\":\"FINISHED\"");
            } catch (IOException | InterruptedException e) {
                return false;
            }
        }, 180_000, "job " + jobId + " ending");
        assertThat(get("/jobs/" + jobId).replace(" ", "")).contains("\"state\":\"" + state + "\"");
    }

    /** The TaskManagers' stdout files, by their index. */
    private Map<Integer, Path> taskManagerOutputs() throws IOException {
        Map<Integer, Path> outputs = new HashMap<>();
        Pattern name = Pattern.compile("runnel-.*-taskmanager-(\\d+)-.*\\.out");
        try (Stream<Path> files = Files.list(home.resolve("log"))) {
            for (Path file : (Iterable<Path>) files::iterator) {
                Matcher m = name.matcher(file.getFileName().toString());
                if (m.matches()) {
                    outputs.put(Integer.parseInt(m.group(1)), file);
                }
            }
        }
        return outputs;
    }

    private int taskManagerPrinting(String marker) throws IOException {
        for (Map.Entry<Integer, Path> output : taskManagerOutputs().entrySet()) {
            if (Files.readString(output.getValue(), StandardCharsets.UTF_8).contains(marker)) {
                return output.getKey();
            }
        }
        throw new AssertionError("no TaskManager printed " + marker);
    }

    private long linesWith(String marker) {
        long lines = 0;
        try {
            for (Path output : taskManagerOutputs().values()) {
                lines += Files.readAllLines(output, StandardCharsets.UTF_8).stream().filter(l -> l.contains(marker)).count();
            }
        } catch (IOException e) {
            return 0;
        }
        return lines;
    }

    /** The largest count printed per key whose name starts with {@code label}, over every TaskManager. */
    private Map<String, Integer> lastCounts(String label) throws IOException {
        Map<String, Integer> counts = new HashMap<>();
        for (Path output : taskManagerOutputs().values()) {
            for (String line : Files.readAllLines(output, StandardCharsets.UTF_8)) {
                Matcher m = COUNT.matcher(line);
                if (m.find() && m.group(1).startsWith(label)) {
                    counts.merge(m.group(1), Integer.parseInt(m.group(2)), Math::max);
                }
            }
        }
        return counts;
    }

    private void assertExactCounts(String label, long records, int keys) throws IOException {
        Map<String, Integer> counts = lastCounts(label);
        for (int key = 0; key < keys; key++) {
            long expected = records / keys + (key < records % keys ? 1 : 0);
            assertThat(counts.get(label + key)).as("key %s%s", label, key).isEqualTo((int) expected);
        }
    }

    private static void waitUntil(BooleanSupplier condition, long millis, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(100);
        }
    }
}
