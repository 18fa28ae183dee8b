package dev.runnel.runtime.checkpoint;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle.HandleAndLocalPath;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.storage.FileSystemCheckpointStorage;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.streaming.runtime.tasks.CheckpointMetrics;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * A rescale handover that is given up deletes the local files its acknowledged subtasks handed over, also
 * those of an acknowledgement that arrives after it was given up; a user's savepoint given up leaves state
 * outside its folder alone (it has none there). The coordinator runs against a job of two subtasks whose
 * tasks are simulated.
 */
@Timeout(30)
class RescaleHandoverCleanupTest {

    @TempDir
    Path tmp;

    private JobGraph job;
    private JobVertex vertex;
    private String operatorId;
    private CheckpointCoordinator coordinator;

    @BeforeEach
    void setUp() throws IOException {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.fromSequence(0, 10).addSink(new SinkFunction<Long>() {});
        job = env.getJobGraph("handover cleanup");
        assertThat(job.getTotalSubtasks()).isEqualTo(2);
        vertex = job.getVertices().get(0);
        operatorId = vertex.getOperators().get(0).getConfig().operatorId();
        FileSystemCheckpointStorage storage = new FileSystemCheckpointStorage(tmp.resolve("checkpoints").toString(),
                tmp.resolve("savepoints").toString(), 0);
        coordinator = new CheckpointCoordinator("job", job,
                CheckpointCoordinatorConfiguration.fromConfiguration(new Configuration()),
                storage.createCheckpointStorage("job"), new DefaultCompletedCheckpointStore(1), 1, new IdleJobAccess());
    }

    @AfterEach
    void tearDown() {
        coordinator.close();
    }

    @Test
    void aGivenUpHandoverDeletesWhatWasHandedOverAlsoWhenAcknowledgedLate() throws Exception {
        CompletableFuture<CompletedCheckpoint> handover = coordinator.triggerRescaleSnapshot(true);
        Path early = handedOverFile("early");
        Path late = handedOverFile("late");

        coordinator.acknowledgeCheckpoint(vertex.getId(), 0, 1, stateOf(early), new CheckpointMetrics(0, 0, 0, 0));
        coordinator.declineCheckpoint(vertex.getId(), 1, 1, new IllegalStateException("declined"));
        assertThatThrownBy(() -> handover.get(10, TimeUnit.SECONDS)).hasMessageContaining("declined");
        assertThat(early).as("acknowledged before the decline").doesNotExist();

        coordinator.acknowledgeCheckpoint(vertex.getId(), 1, 1, stateOf(late), new CheckpointMetrics(0, 0, 0, 0));
        assertThat(late).as("acknowledged after the decline").doesNotExist();
    }

    @Test
    void aGivenUpSavepointLeavesFilesOutsideItsFolder() throws Exception {
        CompletableFuture<CompletedCheckpoint> savepoint = coordinator.triggerSavepoint(null,
                dev.runnel.core.execution.SavepointFormatType.NATIVE, false, false);
        Path outside = handedOverFile("outside");
        coordinator.acknowledgeCheckpoint(vertex.getId(), 0, 1, stateOf(outside), new CheckpointMetrics(0, 0, 0, 0));
        coordinator.declineCheckpoint(vertex.getId(), 1, 1, new IllegalStateException("declined"));
        assertThatThrownBy(() -> savepoint.get(10, TimeUnit.SECONDS)).hasMessageContaining("declined");
        assertThat(outside).exists();
    }

    private Path handedOverFile(String name) throws IOException {
        return Files.writeString(tmp.resolve(name + ".sst"), name);
    }

    /** One subtask's state: a file-based keyed snapshot whose one file is {@code file}. */
    private Map<String, OperatorSubtaskState> stateOf(Path file) throws IOException {
        IncrementalRemoteKeyedStateHandle handle = new IncrementalRemoteKeyedStateHandle(UUID.randomUUID(),
                KeyGroupRange.of(0, 63), 1, List.of(),
                List.of(new HandleAndLocalPath(file.getFileName().toString(), new FileStateHandle(file,
                        Files.size(file)))), new ByteStreamStateHandle("meta", new byte[0]));
        return Map.of(operatorId, new OperatorSubtaskState(List.of(handle), List.of()));
    }
}
