package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.state.storage.FileSystemCheckpointStorage;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Closing the coordinator (the job ended) while a checkpoint is being triggered leaves no checkpoint behind and
 * changes no folder afterwards: a trigger that made its folder after the pending checkpoints were given up
 * deletes it itself, and close waits for the timer's trigger to return. The folder creation is held on a latch
 * so that the close falls exactly into that window.
 */
@Timeout(30)
class CheckpointCoordinatorCloseTest {

    @TempDir
    Path tmp;

    private final CountDownLatch creating = new CountDownLatch(1);
    private final CountDownLatch mayCreate = new CountDownLatch(1);
    private final AtomicBoolean createReturned = new AtomicBoolean();
    private CheckpointCoordinator coordinator;

    @AfterEach
    void tearDown() {
        mayCreate.countDown();
        if (coordinator != null) {
            coordinator.close();
        }
    }

    @Test
    void aTriggerThatMadeItsFolderAfterCloseGivesItUp() throws Exception {
        coordinator = coordinator(new Configuration());
        CompletableFuture<CompletableFuture<CompletedCheckpoint>> trigger =
                CompletableFuture.supplyAsync(coordinator::triggerCheckpoint);
        assertThat(creating.await(10, TimeUnit.SECONDS)).as("the trigger reached the folder creation").isTrue();

        coordinator.close();
        mayCreate.countDown();

        CompletableFuture<CompletedCheckpoint> checkpoint = trigger.get(10, TimeUnit.SECONDS);
        assertThatThrownBy(() -> checkpoint.get(10, TimeUnit.SECONDS)).hasMessageContaining("the job ended");
        assertThat(coordinator.pendingTriggers()).isEmpty();
        assertThat(checkpointFolders()).as("folders left by a checkpoint of a closed coordinator").isEmpty();
    }

    @Test
    void closeReturnsOnlyOnceThePeriodicTriggerInProgressReturned() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.interval", "20 ms");
        coordinator = coordinator(conf);
        coordinator.startCheckpointScheduler();
        assertThat(creating.await(10, TimeUnit.SECONDS)).as("a periodic trigger reached the folder creation").isTrue();

        Thread closing = new Thread(coordinator::close, "closing");
        closing.start();
        while (closing.getState() != Thread.State.TIMED_WAITING && closing.getState() != Thread.State.TERMINATED) {
            Thread.onSpinWait();
        }
        mayCreate.countDown();
        closing.join(TimeUnit.SECONDS.toMillis(15));

        assertThat(closing.isAlive()).as("close returned").isFalse();
        assertThat(createReturned).as("the trigger returned before close did").isTrue();
        assertThat(coordinator.pendingTriggers()).isEmpty();
        assertThat(checkpointFolders()).as("folders left by a checkpoint of a closed coordinator").isEmpty();
    }

    private CheckpointCoordinator coordinator(Configuration conf) throws IOException {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        env.fromSequence(0, 10).addSink(new SinkFunction<Long>() {});
        JobGraph job = env.getJobGraph("close while triggering");
        CheckpointStorageAccess files = new FileSystemCheckpointStorage(tmp.resolve("checkpoints").toString(),
                tmp.resolve("savepoints").toString(), 0).createCheckpointStorage("job");
        return new CheckpointCoordinator("job", job, CheckpointCoordinatorConfiguration.fromConfiguration(conf),
                new HeldFirstCreation(files), new DefaultCompletedCheckpointStore(1), 1, new IdleJobAccess());
    }

    private List<Path> checkpointFolders() throws IOException {
        try (Stream<Path> files = Files.walk(tmp.resolve("checkpoints"))) {
            return files.filter(f -> f.getFileName().toString().startsWith("chk-")).toList();
        }
    }

    /** Real checkpoint folders; the first is made only once the test lets it (uninterruptibly, as a slow disk). */
    private final class HeldFirstCreation implements CheckpointStorageAccess {
        private final CheckpointStorageAccess files;
        private final AtomicBoolean first = new AtomicBoolean(true);

        HeldFirstCreation(CheckpointStorageAccess files) {
            this.files = files;
        }

        @Override
        public CheckpointStorageLocation initializeLocationForCheckpoint(long checkpointId) throws IOException {
            if (!first.getAndSet(false)) {
                return files.initializeLocationForCheckpoint(checkpointId);
            }
            creating.countDown();
            boolean interrupted = false;
            while (true) {
                try {
                    mayCreate.await();
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
            try {
                return files.initializeLocationForCheckpoint(checkpointId);
            } finally {
                createReturned.set(true);
                if (interrupted) {
                    Thread.currentThread().interrupt();
                }
            }
        }

        @Override
        public CheckpointStorageLocation initializeLocationForSavepoint(long checkpointId, String targetDirectory)
                throws IOException {
            return files.initializeLocationForSavepoint(checkpointId, targetDirectory);
        }

        @Override
        public CompletedCheckpoint loadCheckpoint(String pointer) throws IOException {
            return files.loadCheckpoint(pointer);
        }

        @Override
        public List<String> findCompletedCheckpoints() throws IOException {
            return files.findCompletedCheckpoints();
        }
    }
}
