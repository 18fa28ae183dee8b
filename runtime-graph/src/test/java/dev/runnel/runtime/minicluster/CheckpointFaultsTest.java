package dev.runnel.runtime.minicluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.core.execution.JobClient;
import dev.runnel.runtime.checkpoint.CheckpointCoordinator;
import dev.runnel.runtime.state.FunctionInitializationContext;
import dev.runnel.runtime.state.FunctionSnapshotContext;
import dev.runnel.streaming.api.checkpoint.CheckpointedFunction;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Checkpoints that go wrong: a retained checkpoint whose state file disappears is skipped at recovery for the
 * one before it; a checkpoint folder that cannot be written declines checkpoints while the job keeps running.
 */
@Timeout(120)
class CheckpointFaultsTest {

    private static final int RECORDS = 16_000;
    private static final int KEYS = 40;

    static final Map<Long, Long> MAX_COUNT = new ConcurrentHashMap<>();
    static final List<Long> RESTORED_FROM = new CopyOnWriteArrayList<>();
    static final AtomicBoolean FAILED_ONCE = new AtomicBoolean();
    static volatile Path checkpointRoot;
    static volatile long corruptedCheckpoint;
    /** How the newest checkpoint is damaged: its state files deleted, or its _metadata cut, or its magic changed. */
    static volatile String damage;

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        MAX_COUNT.clear();
        RESTORED_FROM.clear();
        FAILED_ONCE.set(false);
        corruptedCheckpoint = -1;
        checkpointRoot = dir;
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"state files gone", "metadata truncated",
        "wrong magic", "unknown version"})
    void recoveryFallsBackToTheCheckpointBeforeADamagedOne(String how) throws Exception {
        damage = how;
        Configuration conf = baseConfiguration();
        conf.setString("state.checkpoints.num-retained", "3");
        // State goes to files (not inline in _metadata) so there is a file to lose.
        conf.setString("state.storage.fs.memory-threshold", "0");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        countingJob(env, 9_000, true);
        env.execute("fallback");

        assertThat(corruptedCheckpoint).as("a checkpoint was damaged").isPositive();
        assertThat(RESTORED_FROM).isNotEmpty().allSatisfy(id -> assertThat(id).isLessThan(corruptedCheckpoint));
        assertThat(MAX_COUNT).hasSize(KEYS);
        assertThat(MAX_COUNT.values()).allSatisfy(c -> assertThat(c).isEqualTo(RECORDS / KEYS));
    }

    @org.junit.jupiter.params.ParameterizedTest
    @org.junit.jupiter.params.provider.CsvSource({"RETAIN_ON_CANCELLATION, true", "DELETE_ON_CANCELLATION, false",
        "NO_EXTERNALIZED_CHECKPOINTS, false"})
    void cancellationKeepsTheCheckpointsOnlyWhenRetentionSaysSo(String retention, boolean kept) throws Exception {
        Configuration conf = baseConfiguration();
        conf.setString("execution.checkpointing.externalized-checkpoint-retention", retention);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        countingJob(env, -1, false);
        EmbeddedJob job = (EmbeddedJob) env.executeAsync("retention " + retention);
        waitUntil(() -> job.checkpointCoordinator().getNumberOfCompletedCheckpoints() >= 2);
        job.cancel().get(30, TimeUnit.SECONDS);
        Path jobFolder = dir.resolve(job.getJobID().toString());
        boolean hasCompleted;
        try (Stream<Path> chks = Files.exists(jobFolder) ? Files.list(jobFolder) : Stream.empty()) {
            hasCompleted = chks.anyMatch(p -> p.getFileName().toString().startsWith("chk-")
                    && Files.exists(p.resolve("_metadata")));
        }
        assertThat(hasCompleted).as("a completed checkpoint remains after cancellation").isEqualTo(kept);
        assertThat(job.getJobStatus().get()).isEqualTo(dev.runnel.api.common.JobStatus.CANCELED);
    }

    @Test
    void anUnwritableCheckpointFolderDeclinesCheckpointsAndTheJobRunsOn() throws Exception {
        Configuration conf = baseConfiguration();
        conf.setString("execution.checkpointing.tolerable-failed-checkpoints", "1000");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        countingJob(env, -1, false);
        EmbeddedJob job = (EmbeddedJob) env.executeAsync("unwritable");
        CheckpointCoordinator coordinator = job.checkpointCoordinator();
        waitUntil(() -> coordinator.getNumberOfCompletedCheckpoints() >= 1);
        // The job's folder becomes a plain file: no chk-N can be made below it (this works as root too).
        Path jobFolder = dir.resolve(job.getJobID().toString());
        Path aside = dir.resolve("aside");
        Files.move(jobFolder, aside);
        Files.writeString(jobFolder, "not a folder");
        waitUntil(() -> coordinator.getNumberOfFailedCheckpoints() >= 2);
        Files.delete(jobFolder);
        Files.move(aside, jobFolder);
        long completedBefore = coordinator.getNumberOfCompletedCheckpoints();
        waitUntil(() -> coordinator.getNumberOfCompletedCheckpoints() > completedBefore);
        job.getJobExecutionResult().get(60, TimeUnit.SECONDS);
        assertThat(MAX_COUNT.values()).allSatisfy(c -> assertThat(c).isEqualTo(RECORDS / KEYS));
    }

    private Configuration baseConfiguration() {
        Configuration conf = new Configuration();
        conf.setString("state.checkpoints.dir", dir.toString());
        conf.setString("execution.checkpointing.interval", "100 ms");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "3");
        conf.setString("restart-strategy.fixed-delay.delay", "10 ms");
        return conf;
    }

    private static void countingJob(StreamExecutionEnvironment env, long failAt, boolean damageNewest) {
        env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, RateLimiterStrategy.perSecond(8_000), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "numbers")
                .keyBy(v -> v % KEYS)
                .process(new Counter(failAt, damageNewest))
                .addSink(new SinkFunction<Tuple2<Long, Long>>() {
                    @Override
                    public void invoke(Tuple2<Long, Long> value, Context context) {
                        MAX_COUNT.merge(value.f0, value.f1, Math::max);
                    }
                });
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        while (!condition.getAsBoolean()) {
            Thread.sleep(10);
        }
    }

    /** Deletes the state files of the newest completed checkpoint (keeping its _metadata). */
    /** The completed checkpoints (chk-N folders with their _metadata) of the job running under checkpointRoot. */
    static long completedCheckpoints() throws IOException {
        try (Stream<Path> jobs = Files.list(checkpointRoot)) {
            Path job = jobs.filter(Files::isDirectory).findFirst().orElse(null);
            if (job == null) {
                return 0;
            }
            try (Stream<Path> chks = Files.list(job)) {
                return chks.filter(p -> p.getFileName().toString().startsWith("chk-"))
                        .filter(p -> Files.exists(p.resolve("_metadata"))).count();
            }
        }
    }

    static synchronized void damageNewestCheckpoint() throws IOException {
        if (corruptedCheckpoint > 0) {
            return;
        }
        try (Stream<Path> jobs = Files.list(checkpointRoot)) {
            Path job = jobs.filter(Files::isDirectory).findFirst().orElseThrow();
            Path newest;
            try (Stream<Path> chks = Files.list(job)) {
                newest = chks.filter(p -> p.getFileName().toString().startsWith("chk-"))
                        .filter(p -> Files.exists(p.resolve("_metadata")))
                        .max(Comparator.comparingLong(p -> Long.parseLong(p.getFileName().toString().substring(4))))
                        .orElseThrow();
            }
            Path metadata = newest.resolve("_metadata");
            byte[] bytes = Files.readAllBytes(metadata);
            switch (damage) {
                case "state files gone" -> {
                    try (Stream<Path> files = Files.list(newest)) {
                        for (Path file : files.filter(p -> !p.getFileName().toString().equals("_metadata")).toList()) {
                            Files.delete(file);
                        }
                    }
                }
                case "metadata truncated" -> Files.write(metadata, java.util.Arrays.copyOf(bytes, bytes.length / 2));
                case "wrong magic" -> {
                    bytes[0] ^= 0x5A;
                    Files.write(metadata, bytes);
                }
                case "unknown version" -> {
                    bytes[7] = 99; // the int after the 4-byte magic
                    Files.write(metadata, bytes);
                }
                default -> throw new IllegalArgumentException(damage);
            }
            corruptedCheckpoint = Long.parseLong(newest.getFileName().toString().substring(4));
        }
    }

    static final class Counter extends KeyedProcessFunction<Long, Long, Tuple2<Long, Long>>
            implements CheckpointedFunction {
        private final long failAt;
        private final boolean damageNewest;
        private transient ValueState<Long> count;

        Counter(long failAt, boolean damageNewest) {
            this.failAt = failAt;
            this.damageNewest = damageNewest;
        }

        @Override
        public void initializeState(FunctionInitializationContext context) {
            context.getRestoredCheckpointId().ifPresent(RESTORED_FROM::add);
        }

        @Override
        public void snapshotState(FunctionSnapshotContext context) {}

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Tuple2<Long, Long>> out) throws Exception {
            // The first record from failAt on once two checkpoints are complete: one to damage, one to fall back to.
            if (failAt >= 0 && value >= failAt && !FAILED_ONCE.get() && completedCheckpoints() >= 2
                    && FAILED_ONCE.compareAndSet(false, true)) {
                if (damageNewest) {
                    damageNewestCheckpoint();
                }
                throw new IllegalStateException("injected failure at " + value);
            }
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            out.collect(Tuple2.of(ctx.getCurrentKey(), next));
        }
    }
}
