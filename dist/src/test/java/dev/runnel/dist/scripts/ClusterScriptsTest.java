package dev.runnel.dist.scripts;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/'s scripts run for real (bash, from src/main/bin and src/main/conf copied into an installation folder),
 * starting the {@link StandInJobManager} and {@link StandInTaskManager} as their daemons: pid files name
 * exactly the processes started, stop kills exactly those, a stale pid file never kills anything, the secret
 * is generated once and kept. Every process a test leaves behind is killed by its pid in {@link #killLeftovers}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ClusterScriptsTest {

    private static final Path SOURCES = Path.of("src", "main");
    private static final String USER = System.getProperty("user.name");

    @TempDir
    Path work;

    private Path home;
    private Path pidDir;
    private Path logDir;
    private int restPort;
    private final List<Process> helpers = new ArrayList<>();

    @BeforeEach
    void install() throws IOException {
        home = work.resolve("runnel");
        pidDir = Files.createDirectories(work.resolve("pids"));
        logDir = work.resolve("logs");
        copy(SOURCES.resolve("bin"), home.resolve("bin"));
        copy(SOURCES.resolve("conf"), home.resolve("conf"));
        try (Stream<Path> scripts = Files.list(home.resolve("bin"))) {
            for (Path script : scripts.toList()) {
                Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
            }
        }
        restPort = freePort();
        Path conf = home.resolve("conf/runnel.yaml");
        Files.writeString(conf, Files.readString(conf)
                .replace("rest.port: 8081", "rest.port: " + restPort)
                .replace("jobmanager.memory.process.size: 1600m", "jobmanager.memory.process.size: 256m")
                .replace("taskmanager.memory.process.size: 1728m", "taskmanager.memory.process.size: 200m")
                .replace("taskmanager.numberOfTaskSlots: 2", "taskmanager.numberOfTaskSlots: 3"));
        Files.writeString(home.resolve("conf/workers"), "# two TaskManagers\nlocalhost\nlocalhost\n");
    }

    @AfterEach
    void killLeftovers() {
        // every stand-in of this test names its folder on its command line (-Dlog.file), pid file or not
        List<ProcessHandle> leftovers = ProcessHandle.allProcesses()
                .filter(p -> isStandIn(p) && commandLine(p).contains(work.toString())).toList();
        leftovers.forEach(ProcessHandle::destroyForcibly);
        helpers.forEach(Process::destroyForcibly);
        assertThat(leftovers).as("processes the scripts left running").isEmpty();
    }

    @Test
    void startAndStopTheClusterExactlyByPidFile() throws Exception {
        Run start = script("start-cluster.sh");

        assertThat(start.status).as(start.output).isZero();
        assertThat(start.output).contains("Generated security.cluster.secret")
                .contains("Cluster ready: 1 JobManager and 2 TaskManager(s) with 6 slots; REST API and dashboard at "
                        + "http://127.0.0.1:" + restPort);
        assertThat(pidFiles()).extracting(p -> p.getFileName().toString()).containsExactlyInAnyOrder(
                "runnel-" + USER + "-jobmanager-0.pid", "runnel-" + USER + "-taskmanager-0.pid",
                "runnel-" + USER + "-taskmanager-1.pid");
        ProcessHandle jobManager = process("jobmanager", 0);
        ProcessHandle taskManager0 = process("taskmanager", 0);
        ProcessHandle taskManager1 = process("taskmanager", 1);
        assertThat(commandLine(jobManager)).contains(StandInJobManager.class.getName()).contains("-Xmx192m")
                .contains("--configDir " + home.resolve("conf"));
        assertThat(commandLine(taskManager0)).contains(StandInTaskManager.class.getName()).contains("-Xmx150m");
        String host = java.net.InetAddress.getLocalHost().getHostName();
        assertThat(logDir.resolve("runnel-" + USER + "-taskmanager-1-" + host + ".out")).exists();
        assertThat(Files.readString(logDir.resolve("runnel-" + USER + "-jobmanager-0-" + host + ".out")))
                .contains("stand-in JobManager serving /overview on port " + restPort);

        Run stopOne = script("taskmanager.sh", "stop");
        assertThat(stopOne.output).contains("Stopping taskmanager daemon (pid " + taskManager1.pid() + ")");
        assertThat(taskManager1.onExit().get(15, TimeUnit.SECONDS).isAlive()).isFalse();
        assertThat(taskManager0.isAlive()).as("only the TaskManager started last stops").isTrue();

        Run stop = script("stop-cluster.sh");
        assertThat(stop.status).as(stop.output).isZero();
        assertThat(stop.output).contains("Stopping taskmanager daemon (pid " + taskManager0.pid() + ")")
                .contains("Stopping jobmanager daemon (pid " + jobManager.pid() + ")");
        assertThat(jobManager.onExit().get(15, TimeUnit.SECONDS).isAlive()).isFalse();
        assertThat(taskManager0.isAlive()).isFalse();
        assertThat(pidFiles()).isEmpty();
    }

    @Test
    void stopWhenNothingRunsSaysSoAndSucceeds() throws Exception {
        Run stop = script("stop-cluster.sh");
        assertThat(stop.status).isZero();
        assertThat(stop.output).contains("No cluster is running on host");
        Run stopTaskManager = script("taskmanager.sh", "stop");
        assertThat(stopTaskManager.status).isZero();
        assertThat(stopTaskManager.output).contains("No taskmanager daemon to stop");
    }

    @Test
    void startForegroundRunsInThisTerminalWithTheConfigurationOfRunnelConfDir() throws Exception {
        Path otherConf = Files.createDirectories(work.resolve("other-conf"));
        Files.writeString(otherConf.resolve("runnel.yaml"), "rest.port: " + restPort
                + "\nsecurity.cluster.secret: abc\ntaskmanager.memory.process.size: 128m\n");
        Path output = work.resolve("foreground.out");
        ProcessBuilder builder = new ProcessBuilder("bash", home.resolve("bin/taskmanager.sh").toString(),
                "start-foreground").redirectErrorStream(true).redirectOutput(output.toFile());
        builder.environment().putAll(Map.of("RUNNEL_CONF_DIR", otherConf.toString(),
                "RUNNEL_PID_DIR", pidDir.toString(), "RUNNEL_CLASSPATH", System.getProperty("java.class.path"),
                "RUNNEL_TASKMANAGER_CLASS", StandInTaskManager.class.getName(),
                "JAVA_HOME", System.getProperty("java.home")));
        Process foreground = builder.start();
        helpers.add(foreground);
        // the stand-in cannot register (no JobManager) and keeps retrying; the script's process becomes it
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!commandLine(foreground.toHandle()).contains(StandInTaskManager.class.getName())
                && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(commandLine(foreground.toHandle())).contains(StandInTaskManager.class.getName())
                .contains("-Xmx96m").contains("--configDir " + otherConf);
        assertThat(pidFiles()).as("a foreground daemon has no pid file").isEmpty();
        foreground.destroy();
        assertThat(foreground.waitFor(15, TimeUnit.SECONDS)).isTrue();
        assertThat(Files.readString(output)).doesNotContain("Starting taskmanager daemon");
    }

    @Test
    void binRunnelRunsTheCliWithTheInstallationsConfiguration() throws Exception {
        Run list = script("runnel", "list");
        assertThat(list.status).isEqualTo(1);
        assertThat(list.output.strip()).endsWith("Could not reach the JobManager at http://127.0.0.1:" + restPort
                + " (Connection refused). Is the cluster running? Start it with bin/start-cluster.sh");
        Run help = script("runnel", "--help");
        assertThat(help.status).isZero();
        assertThat(help.output).contains("Usage: runnel").contains("savepoint");
    }

    @Test
    void aWrongCommandPrintsTheUsage() throws Exception {
        Run run = script("jobmanager.sh", "launch");
        assertThat(run.status).isEqualTo(2);
        assertThat(run.output).contains("Usage: jobmanager.sh start|start-foreground|stop|stop-all");
    }

    @Test
    void aStalePidFileIsRemovedAndItsProcessLeftAlone() throws Exception {
        Process unrelated = new ProcessBuilder("sleep", "60").start();
        helpers.add(unrelated);
        Files.writeString(pidDir.resolve("runnel-" + USER + "-taskmanager-0.pid"), unrelated.pid() + "\n");
        Files.writeString(pidDir.resolve("runnel-" + USER + "-jobmanager-0.pid"), "999999999\n");

        Run stop = script("stop-cluster.sh");

        assertThat(stop.status).as(stop.output).isZero();
        assertThat(stop.output).contains("No taskmanager daemon runs with pid " + unrelated.pid() + " (stale pid file")
                .contains("No jobmanager daemon runs with pid 999999999");
        assertThat(unrelated.isAlive()).as("a pid that is not ours is never killed").isTrue();
        assertThat(pidFiles()).isEmpty();
    }

    @Test
    void theSecretIsGeneratedOnceAndKept() throws Exception {
        Path conf = home.resolve("conf/runnel.yaml");
        assertThat(script("start-cluster.sh").status).isZero();
        String secret = secret(Files.readString(conf));
        assertThat(secret).matches("[0-9a-f]{64}");
        assertThat(Files.getPosixFilePermissions(conf))
                .containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
        assertThat(script("stop-cluster.sh").status).isZero();

        Run again = script("start-cluster.sh");
        assertThat(again.status).as(again.output).isZero();
        assertThat(again.output).doesNotContain("Generated security.cluster.secret");
        assertThat(secret(Files.readString(conf))).isEqualTo(secret);
        assertThat(Files.readString(conf).split("\nsecurity.cluster.secret:", -1)).hasSize(2);

        Run twice = script("start-cluster.sh");
        assertThat(twice.status).isEqualTo(1);
        assertThat(twice.output).contains("A JobManager of this installation already runs");
        assertThat(script("stop-cluster.sh").status).isZero();
        assertThat(pidFiles()).isEmpty();
    }

    @Test
    void aClusterThatDoesNotBecomeReadyIsReportedWithinTheTimeout() throws Exception {
        // TaskManagers that never register (a setting only the stand-in reads)
        Path conf = home.resolve("conf/runnel.yaml");
        Files.writeString(conf, Files.readString(conf) + "\nstandin.taskmanager.register: false\n");
        // long enough for the JobManager's JVM to answer on a loaded two-core machine (3 s was not, once, in CI):
        // the message must name how many TaskManagers registered, which takes the JobManager's answer
        Map<String, String> env = new HashMap<>(Map.of("RUNNEL_START_TIMEOUT", "10"));
        Run start = script(env, "start-cluster.sh");
        assertThat(start.status).isEqualTo(1);
        assertThat(start.output).contains("The cluster did not become ready within 10 s")
                .contains("(0 of 2 TaskManagers registered)").contains("stop them with bin/stop-cluster.sh");
        script("stop-cluster.sh");
    }

    // ------------------------------------------------------------------ helpers

    private record Run(int status, String output) {}

    private Run script(String name, String... args) throws Exception {
        return script(Map.of(), name, args);
    }

    private Run script(Map<String, String> extraEnv, String name, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of("bash", home.resolve("bin").resolve(name).toString()));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("RUNNEL_PID_DIR", pidDir.toString());
        builder.environment().put("RUNNEL_LOG_DIR", logDir.toString());
        builder.environment().put("RUNNEL_CLASSPATH", System.getProperty("java.class.path"));
        builder.environment().put("RUNNEL_JOBMANAGER_CLASS", StandInJobManager.class.getName());
        builder.environment().put("RUNNEL_TASKMANAGER_CLASS", StandInTaskManager.class.getName());
        builder.environment().put("RUNNEL_START_TIMEOUT", "60");
        builder.environment().put("JAVA_HOME", System.getProperty("java.home"));
        builder.environment().remove("RUNNEL_CONF_DIR");
        builder.environment().putAll(extraEnv);
        Process process = builder.start();
        helpers.add(process);
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(90, TimeUnit.SECONDS)) {
            throw new AssertionError(name + " did not finish: " + output);
        }
        return new Run(process.exitValue(), output);
    }

    private List<Path> pidFiles() throws IOException {
        try (Stream<Path> files = Files.list(pidDir)) {
            return files.filter(f -> f.getFileName().toString().endsWith(".pid")).toList();
        }
    }

    private ProcessHandle process(String kind, int index) throws IOException {
        Path file = pidDir.resolve("runnel-" + USER + "-" + kind + "-" + index + ".pid");
        ProcessHandle handle = readPid(file).flatMap(ProcessHandle::of)
                .orElseThrow(() -> new AssertionError("no live process for " + file));
        assertThat(isStandIn(handle)).as(commandLine(handle)).isTrue();
        return handle;
    }

    private static Optional<Long> readPid(Path file) {
        try {
            return Optional.of(Long.parseLong(Files.readString(file).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    private boolean isStandIn(ProcessHandle handle) {
        String command = commandLine(handle);
        return command.contains(StandInJobManager.class.getName()) || command.contains(StandInTaskManager.class.getName());
    }

    private static String commandLine(ProcessHandle handle) {
        try {
            return new String(Files.readAllBytes(Path.of("/proc", Long.toString(handle.pid()), "cmdline")),
                    StandardCharsets.UTF_8).replace('\0', ' ');
        } catch (IOException e) {
            return handle.info().commandLine().orElse("");
        }
    }

    private static String secret(String conf) {
        Matcher matcher = Pattern.compile("(?m)^security\\.cluster\\.secret: (\\S+)$").matcher(conf);
        assertThat(matcher.find()).as("a security.cluster.secret line in\n" + conf).isTrue();
        return matcher.group(1);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    private static void copy(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path file : files.toList()) {
                Files.copy(file, to.resolve(file.getFileName()));
            }
        }
    }
}
