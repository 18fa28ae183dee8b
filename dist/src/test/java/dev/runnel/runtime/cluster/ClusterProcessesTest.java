package dev.runnel.runtime.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.JobID;
import dev.runnel.api.common.JobStatus;
import dev.runnel.configuration.Configuration;
import dev.runnel.examples.wordcount.WordCount;
import dev.runnel.runtime.dispatcher.DispatcherGateway;
import dev.runnel.runtime.entrypoint.StandaloneSessionClusterEntrypoint;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.taskexecutor.TaskManagerRunner;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.util.InstantiationUtil;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A JobManager in this JVM and two TaskManagers as separate JVM processes: jobs are deployed over the control
 * plane, their records cross between the processes over the data plane, and results are exact.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class ClusterProcessesTest {

    private static final String SECRET = "cluster-test-secret-" + ProcessHandle.current().pid();

    @TempDir
    Path work;

    private StandaloneSessionClusterEntrypoint jobManager;
    private final List<Process> taskManagers = new ArrayList<>();
    /** Each TaskManager's Prometheus port, by index; the JobManager's. */
    private final List<Integer> metricsPorts = new ArrayList<>();
    private int jobManagerMetricsPort;

    private void startCluster(int taskManagerCount) throws Exception {
        Configuration conf = new Configuration()
                .setString("security.cluster.secret", SECRET)
                .setString("jobmanager.rpc.port", "0")
                .setString("rest.port", "0")
                .setString("heartbeat.interval", "200 ms")
                .setString("heartbeat.timeout", "5 s")
                .setString("slot.request.timeout", "20 s")
                .setString("io.tmp.dirs", work.toString());
        jobManagerMetricsPort = freePort();
        conf.setString("metrics.reporter.prom.port", Integer.toString(jobManagerMetricsPort));
        jobManager = new StandaloneSessionClusterEntrypoint(conf);
        for (int i = 0; i < taskManagerCount; i++) {
            taskManagers.add(startTaskManager(i, 2));
        }
        waitUntil(() -> jobManager.dispatcher().overview().taskManagers() == taskManagerCount, 30_000,
                taskManagerCount + " TaskManagers registered");
    }

    private Process startTaskManager(int index, int slots) throws Exception {
        int metricsPort = freePort();
        metricsPorts.add(metricsPort);
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx384m", "-cp", System.getProperty("java.class.path"), TaskManagerRunner.class.getName(),
                "-Dsecurity.cluster.secret=" + SECRET,
                "-Djobmanager.rpc.port=" + jobManager.rpcAddress().getPort(),
                "-Dtaskmanager.numberOfTaskSlots=" + slots,
                "-Dtaskmanager.resource-id=tm-" + index,
                "-Dmetrics.reporter.prom.port=" + metricsPort,
                "-Dio.tmp.dirs=" + work);
        builder.redirectErrorStream(true);
        builder.redirectOutput(work.resolve("tm-" + index + ".out").toFile());
        return builder.start();
    }

    @AfterEach
    void stopCluster() throws Exception {
        for (Process tm : taskManagers) {
            tm.destroy();
        }
        for (Process tm : taskManagers) {
            if (!tm.waitFor(10, TimeUnit.SECONDS)) {
                tm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
        if (jobManager != null) {
            jobManager.close();
        }
    }

    @Test
    void wordCountAtParallelismFourRunsOnTwoTaskManagerProcesses() throws Exception {
        startCluster(2);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(4);
        WordCount.counts(env.fromElements(WordCount.TEXT)).print();
        JobGraph graph = env.getJobGraph("cluster word count");

        JobID jobId = jobManager.dispatcher().submit(InstantiationUtil.serialize(graph, "job graph"), List.of())
                .get(10, TimeUnit.SECONDS);
        DispatcherGateway.JobResult result = awaitResult(jobId);

        assertThat(result.applicationStatus()).as("%s", result.failure()).isEqualTo("SUCCEEDED");
        assertThat(finalCounts()).isEqualTo(expectedCounts());
        // The job ran on both processes.
        assertThat(Files.readString(work.resolve("tm-0.out"))).contains("(");
        assertThat(Files.readString(work.resolve("tm-1.out"))).contains("(");
        assertThat(jobManager.dispatcher().overview().slotsAvailable()).isEqualTo(4);
    }

    @Test
    void aKilledTaskManagerIsReplacedByFreeSlotsAndTheJobResumesFromItsLatestCheckpoint() throws Exception {
        startCluster(3);
        long records = 200_000;
        int keys = 40;
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(4);
        env.enableCheckpointing(200);
        env.getCheckpointConfig().setCheckpointStorage("file://" + work.resolve("checkpoints"));
        env.fromSequence(0, records - 1)
                .map(new Throttle()).returns(dev.runnel.api.common.typeinfo.Types.LONG)
                .keyBy(n -> n % keys)
                .map(new CountPerKey()).returns(dev.runnel.api.common.typeinfo.Types.STRING)
                .uid("count")
                .print();
        JobGraph graph = env.getJobGraph("recovering count");
        JobID jobId = jobManager.dispatcher().submit(InstantiationUtil.serialize(graph, "job graph"), List.of())
                .get(10, TimeUnit.SECONDS);
        waitUntil(() -> jobManager.dispatcher().checkpoints(jobId).orElseThrow().completed() >= 2, 60_000,
                "two completed checkpoints");
        // The job's four slots are on two of the three TaskManagers (first fit in registration order).
        assertThat(jobManager.dispatcher().job(jobId).orElseThrow().overview().state()).isEqualTo("RUNNING");
        int victimIndex = taskManagerRunningTasks();
        Process victim = taskManagers.get(victimIndex);
        victim.destroyForcibly(); // SIGKILL
        assertThat(victim.waitFor(10, TimeUnit.SECONDS)).isTrue();

        DispatcherGateway.JobResult result = awaitResult(jobId);

        assertThat(result.applicationStatus()).as("%s", result.failure()).isEqualTo("SUCCEEDED");
        assertThat(jobManager.dispatcher().exceptions(jobId).orElseThrow().history()).isNotEmpty()
                .anySatisfy(e -> assertThat(e.stacktrace()).contains("tm-" + victimIndex));
        Map<String, Integer> counts = finalCounts(3);
        assertThat(counts).hasSize(keys);
        for (int key = 0; key < keys; key++) {
            long expected = records / keys + (key < records % keys ? 1 : 0);
            assertThat(counts.get(Integer.toString(key))).as("key %s", key).isEqualTo((int) expected);
        }
    }

    @Test
    void aTaskManagerThatStopsSendingHeartbeatsIsDeclaredLostAndItsTasksMove() throws Exception {
        startCluster(3);
        long records = 200_000;
        JobID jobId = submit(countingJob(4, records, null, true));
        waitUntil(() -> jobManager.dispatcher().checkpoints(jobId).orElseThrow().completed() >= 2, 60_000,
                "two completed checkpoints");
        int frozenIndex = taskManagerRunningTasks();
        Process frozen = taskManagers.get(frozenIndex);
        signal(frozen, "STOP"); // alive, connected, silent
        try {
            waitUntil(() -> jobManager.dispatcher().overview().taskManagers() == 2, 20_000,
                    "the silent TaskManager declared lost after heartbeat.timeout");
            DispatcherGateway.JobResult result = awaitResult(jobId);
            assertThat(result.applicationStatus()).as("%s", result.failure()).isEqualTo("SUCCEEDED");
        } finally {
            signal(frozen, "CONT");
        }
        assertThat(jobManager.dispatcher().exceptions(jobId).orElseThrow().history())
                .anySatisfy(e -> assertThat(e.stacktrace()).contains("tm-" + frozenIndex).contains("heartbeat"));
        assertExactCounts(records, 3);
    }

    private static String scrape(int port) {
        try {
            java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
                    java.net.http.HttpRequest.newBuilder(java.net.URI.create("http://127.0.0.1:" + port + "/metrics"))
                            .timeout(java.time.Duration.ofSeconds(5)).build(),
                    java.net.http.HttpResponse.BodyHandlers.ofString());
            return response.body();
        } catch (java.io.IOException | InterruptedException e) {
            return "";
        }
    }

    private static int freePort() throws java.io.IOException {
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** The index of a TaskManager that printed counts: one that runs tasks of the job. */
    private int taskManagerRunningTasks() throws Exception {
        for (int i = 0; i < taskManagers.size(); i++) {
            Path out = work.resolve("tm-" + i + ".out");
            if (Files.exists(out) && Files.readString(out).contains(",")) {
                return i;
            }
        }
        throw new AssertionError("no TaskManager printed a count yet");
    }

    /** Sends {@code signal} to exactly that process, by its PID. */
    private static void signal(Process process, String signal) throws Exception {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    @Test
    void savepointCancelAndResubmitAtAnotherParallelismContinuesEveryKey() throws Exception {
        startCluster(3);
        long records = 60_000;
        JobID first = submit(countingJob(2, records, null, false));
        waitUntil(() -> recordsCounted() > 2_000, 60_000, "the first run counting");
        // Every process serves Prometheus: the JobManager its cluster, a TaskManager its tasks' metrics.
        assertThat(scrape(jobManagerMetricsPort)).contains("runnel_jobmanager_numRegisteredTaskManagers 3");
        int busy = taskManagerRunningTasks();
        waitUntil(() -> scrape(metricsPorts.get(busy)).matches(
                "(?s).*runnel_taskmanager_job_task_numRecordsIn\\{[^}]*job_name=\"count at 2\"[^}]*\\} [1-9].*"),
                10_000, "TaskManager tm-" + busy + "'s Prometheus endpoint counting records");
        String savepoint = jobManager.dispatcher().triggerSavepoint(first, work.resolve("savepoints").toString(),
                dev.runnel.core.execution.SavepointFormatType.CANONICAL, false).get(60, TimeUnit.SECONDS);
        jobManager.dispatcher().cancel(first).get(30, TimeUnit.SECONDS);
        assertThat(awaitResult(first).applicationStatus()).isEqualTo("CANCELED");
        assertThat(Path.of(savepoint).resolve("_metadata")).exists();

        JobID second = submit(countingJob(4, records, savepoint, false));
        DispatcherGateway.JobResult result = awaitResult(second);

        assertThat(result.applicationStatus()).as("%s", result.failure()).isEqualTo("SUCCEEDED");
        assertExactCounts(records, 3);
    }

    @Test
    void aRunningJobRescalesInPlaceOntoMoreSlots() throws Exception {
        startCluster(2);
        long records = 60_000;
        JobID jobId = submit(countingJob(2, records, null, false));
        waitUntil(() -> recordsCounted() > 2_000, 60_000, "the job counting");
        jobManager.dispatcher().rescale(jobId, 4).get(60, TimeUnit.SECONDS);
        assertThat(jobManager.dispatcher().job(jobId).orElseThrow().vertices())
                .allSatisfy(v -> assertThat(v.parallelism()).isEqualTo(4));

        DispatcherGateway.JobResult result = awaitResult(jobId);

        assertThat(result.applicationStatus()).as("%s", result.failure()).isEqualTo("SUCCEEDED");
        assertExactCounts(records, 2);
    }

    @Test
    void aJobNeedingMoreSlotsThanTheClusterHasFailsWithTheNumbers() throws Exception {
        startCluster(2);
        JobID jobId = submit(countingJob(6, 1_000, null, false));

        DispatcherGateway.JobResult result = awaitResult(jobId);

        assertThat(result.applicationStatus()).isEqualTo("FAILED");
        assertThat(result.failure().exceptionName()).contains("needs 6 slots").contains("has 4 free of 4")
                .contains("slot.request.timeout");
        assertThat(jobManager.dispatcher().overview().slotsAvailable()).isEqualTo(4);
    }

    @Test
    void aTaskManagerWithAnotherSecretIsRejectedAndTheClusterRunsOn() throws Exception {
        startCluster(2);
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m", "-cp", System.getProperty("java.class.path"), TaskManagerRunner.class.getName(),
                "-Dsecurity.cluster.secret=not-the-cluster-secret",
                "-Djobmanager.rpc.port=" + jobManager.rpcAddress().getPort(),
                "-Dtaskmanager.resource-id=intruder", "-Dtaskmanager.registration.timeout=3 s",
                "-Dio.tmp.dirs=" + work);
        builder.redirectErrorStream(true);
        builder.redirectOutput(work.resolve("intruder.out").toFile());
        Process intruder = builder.start();
        taskManagers.add(intruder);
        assertThat(intruder.waitFor(30, TimeUnit.SECONDS)).as("the intruder gives up").isTrue();

        assertThat(Files.readString(work.resolve("intruder.out"))).contains("could not register")
                .contains("handshake");
        assertThat(jobManager.dispatcher().overview().taskManagers()).isEqualTo(2);
        JobID jobId = submit(countingJob(4, 2_000, null, false));
        assertThat(awaitResult(jobId).applicationStatus()).isEqualTo("SUCCEEDED");
    }

    private JobID submit(JobGraph graph) throws Exception {
        return jobManager.dispatcher().submit(InstantiationUtil.serialize(graph, "job graph"), List.of())
                .get(10, TimeUnit.SECONDS);
    }

    /** A throttled keyed count of {@code records} numbers over 40 keys, printing {@code (key,count)}. */
    private JobGraph countingJob(int parallelism, long records, String restoreFrom, boolean checkpoints) {
        Configuration conf = new Configuration();
        if (restoreFrom != null) {
            conf.setString("execution.state-recovery.path", restoreFrom);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        if (checkpoints) {
            env.enableCheckpointing(200);
        }
        env.fromSequence(0, records - 1).uid("numbers")
                .map(new Throttle()).returns(dev.runnel.api.common.typeinfo.Types.LONG).uid("throttle")
                .keyBy(n -> n % 40)
                .map(new CountPerKey()).returns(dev.runnel.api.common.typeinfo.Types.STRING).uid("count")
                .print();
        return env.getJobGraph("count at " + parallelism);
    }

    /** How many counts the TaskManagers printed so far. */
    private long recordsCounted() {
        long lines = 0;
        for (int i = 0; i < taskManagers.size(); i++) {
            try {
                Path out = work.resolve("tm-" + i + ".out");
                if (Files.exists(out)) {
                    lines += Files.readAllLines(out, StandardCharsets.UTF_8).stream().filter(l -> l.contains(",")).count();
                }
            } catch (java.io.IOException e) {
                return 0;
            }
        }
        return lines;
    }

    private void assertExactCounts(long records, int taskManagerCount) throws Exception {
        Map<String, Integer> counts = finalCounts(taskManagerCount);
        assertThat(counts).hasSize(40);
        for (int key = 0; key < 40; key++) {
            long expected = records / 40 + (key < records % 40 ? 1 : 0);
            assertThat(counts.get(Integer.toString(key))).as("key %s", key).isEqualTo((int) expected);
        }
    }

    /** Slows the source down so that the job outlives a few checkpoints. */
    static final class Throttle implements dev.runnel.api.common.functions.MapFunction<Long, Long> {
        @Override
        public Long map(Long value) throws Exception {
            if (value % 20 == 0) {
                Thread.sleep(1);
            }
            return value;
        }
    }

    /** Counts the records of its key in keyed state and emits {@code (key,count)}. */
    static final class CountPerKey extends dev.runnel.api.common.functions.RichMapFunction<Long, String> {
        private transient dev.runnel.api.common.state.ValueState<Long> count;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            count = getRuntimeContext().getState(new dev.runnel.api.common.state.ValueStateDescriptor<>("count",
                    dev.runnel.api.common.typeinfo.Types.LONG));
        }

        @Override
        public String map(Long value) throws Exception {
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            return "(" + (value % 40) + "," + next + ")";
        }
    }

    private DispatcherGateway.JobResult awaitResult(JobID jobId) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (System.currentTimeMillis() < deadline) {
            DispatcherGateway.JobResult result = jobManager.dispatcher().result(jobId).orElse(null);
            if (result != null) {
                return result;
            }
            Thread.sleep(50);
        }
        throw new AssertionError("job " + jobId + " did not end within 60 s; status "
                + jobManager.dispatcher().jobs());
    }

    /** The last count printed per word, over both TaskManagers' output. */
    private Map<String, Integer> finalCounts() throws Exception {
        return finalCounts(2);
    }

    private Map<String, Integer> finalCounts(int taskManagerCount) throws Exception {
        Map<String, Integer> counts = new HashMap<>();
        Pattern line = Pattern.compile("\\(([^,()]+),(\\d+)\\)\\s*$");
        for (int i = 0; i < taskManagerCount; i++) {
            for (String text : Files.readAllLines(work.resolve("tm-" + i + ".out"), StandardCharsets.UTF_8)) {
                Matcher m = line.matcher(text);
                if (m.find()) {
                    counts.merge(m.group(1), Integer.parseInt(m.group(2)), Math::max);
                }
            }
        }
        return counts;
    }

    private static Map<String, Integer> expectedCounts() {
        Map<String, Integer> counts = new HashMap<>();
        for (String text : WordCount.TEXT) {
            for (String word : text.toLowerCase(Locale.ROOT).split("\\W+")) {
                if (!word.isEmpty()) {
                    counts.merge(word, 1, Integer::sum);
                }
            }
        }
        return counts;
    }

    private static void waitUntil(BooleanSupplier condition, long millis, String what) throws InterruptedException {
        long deadline = System.currentTimeMillis() + millis;
        while (!condition.getAsBoolean()) {
            if (System.currentTimeMillis() > deadline) {
                throw new AssertionError("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }
}
