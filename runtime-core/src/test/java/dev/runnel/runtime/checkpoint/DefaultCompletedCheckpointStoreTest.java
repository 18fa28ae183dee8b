package dev.runnel.runtime.checkpoint;

import static dev.runnel.runtime.checkpoint.CheckpointTestData.FILE_SIZE;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.JOB_ID;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.bytes;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle.HandleAndLocalPath;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import dev.runnel.runtime.state.storage.FileSystemCheckpointStorage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class DefaultCompletedCheckpointStoreTest {

    @TempDir
    Path tmp;

    private CheckpointStorageAccess storage;

    @BeforeEach
    void setUp() throws IOException {
        storage = new FileSystemCheckpointStorage(tmp.toString(), null, 1024).createCheckpointStorage(JOB_ID);
    }

    /** What the coordinator does: register, write the metadata, add. */
    private static List<CompletedCheckpoint> complete(CheckpointStorageLocation location, CompletedCheckpoint checkpoint,
            CompletedCheckpointStore store) throws IOException {
        checkpoint.registerSharedStates(store.getSharedStateRegistry());
        location.writeMetadata(checkpoint);
        return store.addCheckpointAndSubsumeOldestOne(checkpoint);
    }

    private static HandleAndLocalPath sst(CheckpointStorageLocation location, String name) throws IOException {
        return new HandleAndLocalPath(name, write(location, CheckpointedStateScope.SHARED, bytes(FILE_SIZE, name.hashCode())));
    }

    private static Path path(HandleAndLocalPath file) {
        return ((FileStateHandle) file.handle()).getFilePath();
    }

    private static List<HandleAndLocalPath> sharedOf(CompletedCheckpoint checkpoint) {
        return ((IncrementalRemoteKeyedStateHandle) checkpoint.getOperatorStates().get("rocks").getState(0)
                .managedKeyedState().get(0)).getSharedState();
    }

    @Test
    void retainsTwoAndDeletesTheSubsumedOnesFilesButNotSharedFilesStillUsed() throws IOException {
        DefaultCompletedCheckpointStore store = new DefaultCompletedCheckpointStore(2);

        CheckpointStorageLocation chk1 = storage.initializeLocationForCheckpoint(1);
        HandleAndLocalPath a = sst(chk1, "a.sst");
        HandleAndLocalPath b = sst(chk1, "b.sst");
        CompletedCheckpoint first = CheckpointTestData.incremental(chk1, List.of(a, b));
        assertThat(complete(chk1, first, store)).isEmpty();

        CheckpointStorageLocation chk2 = storage.initializeLocationForCheckpoint(2);
        HandleAndLocalPath c = sst(chk2, "c.sst");
        assertThat(complete(chk2, CheckpointTestData.incremental(chk2, List.of(a, c)), store)).isEmpty();

        CheckpointStorageLocation chk3 = storage.initializeLocationForCheckpoint(3);
        HandleAndLocalPath d = sst(chk3, "d.sst");
        List<CompletedCheckpoint> subsumed = complete(chk3, CheckpointTestData.incremental(chk3, List.of(c, d)), store);

        assertThat(subsumed).extracting(CompletedCheckpoint::getCheckpointID).containsExactly(1L);
        assertThat(Path.of(chk1.getExternalPointer())).doesNotExist();
        assertThat(path(b)).doesNotExist(); // used by checkpoint 1 only
        assertThat(path(a)).exists(); // checkpoint 2 still uses it
        assertThat(path(c)).exists();
        assertThat(path(d)).exists();
        assertThat(store.getAllCheckpoints()).extracting(CompletedCheckpoint::getCheckpointID).containsExactly(2L, 3L);
        assertThat(store.getLatestCheckpoint().getCheckpointID()).isEqualTo(3);
        assertThat(storage.findCompletedCheckpoints()).hasSize(2);
    }

    @Test
    void aRestartedJobReRegistersTheSharedStateOfTheCheckpointsOnDisk() throws IOException {
        DefaultCompletedCheckpointStore before = new DefaultCompletedCheckpointStore(2);
        CheckpointStorageLocation chk1 = storage.initializeLocationForCheckpoint(1);
        HandleAndLocalPath a = sst(chk1, "a.sst");
        complete(chk1, CheckpointTestData.incremental(chk1, List.of(a)), before);
        CheckpointStorageLocation chk2 = storage.initializeLocationForCheckpoint(2);
        HandleAndLocalPath b = sst(chk2, "b.sst");
        complete(chk2, CheckpointTestData.incremental(chk2, List.of(a, b)), before);
        before.shutdown(false); // the process goes away; the files stay
        assertThat(path(a)).exists();

        DefaultCompletedCheckpointStore after = DefaultCompletedCheckpointStore.recover(storage, 2);
        assertThat(after.getAllCheckpoints()).extracting(CompletedCheckpoint::getCheckpointID).containsExactly(1L, 2L);
        // A new checkpoint reuses b (the handle as loaded from chk-2's metadata, a different but equal object).
        CompletedCheckpoint restored = after.getLatestCheckpoint();
        HandleAndLocalPath bLoaded = sharedOf(restored).get(1);
        assertThat(bLoaded.handle()).isNotSameAs(b.handle()).isEqualTo(b.handle());
        CheckpointStorageLocation chk3 = storage.initializeLocationForCheckpoint(3);
        HandleAndLocalPath c = sst(chk3, "c.sst");
        complete(chk3, CheckpointTestData.incremental(chk3, List.of(bLoaded, c)), after);

        assertThat(Path.of(chk1.getExternalPointer())).doesNotExist();
        assertThat(path(a)).exists(); // chk-2 still uses it
        assertThat(path(b)).exists();

        CheckpointStorageLocation chk4 = storage.initializeLocationForCheckpoint(4);
        complete(chk4, CheckpointTestData.incremental(chk4, List.of(c)), after);
        assertThat(path(a)).doesNotExist(); // last used by chk-2, which is gone now
        assertThat(path(b)).exists(); // chk-3 uses it
        assertThat(path(c)).exists();
    }

    @Test
    void aSecondUploadOfASharedFileIsReplacedBeforeTheMetadataIsWritten() throws IOException {
        DefaultCompletedCheckpointStore store = new DefaultCompletedCheckpointStore(3);
        CheckpointStorageLocation chk1 = storage.initializeLocationForCheckpoint(1);
        HandleAndLocalPath a = sst(chk1, "a.sst");
        complete(chk1, CheckpointTestData.incremental(chk1, List.of(a)), store);

        CheckpointStorageLocation chk2 = storage.initializeLocationForCheckpoint(2);
        HandleAndLocalPath again = sst(chk2, "a.sst"); // the same SST uploaded again
        CompletedCheckpoint second = CheckpointTestData.incremental(chk2, List.of(again));
        complete(chk2, second, store);

        assertThat(path(again)).doesNotExist();
        assertThat(sharedOf(second).get(0).handle()).isSameAs(a.handle());
        // The metadata names the kept file, so the checkpoint loads.
        assertThat(sharedOf(storage.loadCheckpoint(chk2.getExternalPointer())).get(0).handle()).isEqualTo(a.handle());
    }

    @Test
    void aCheckpointWhoseMetadataWasWrittenBeforeRegistrationIsRefused() throws IOException {
        DefaultCompletedCheckpointStore store = new DefaultCompletedCheckpointStore(3);
        CheckpointStorageLocation chk1 = storage.initializeLocationForCheckpoint(1);
        complete(chk1, CheckpointTestData.incremental(chk1, List.of(sst(chk1, "a.sst"))), store);

        CheckpointStorageLocation chk2 = storage.initializeLocationForCheckpoint(2);
        HandleAndLocalPath again = sst(chk2, "a.sst");
        CompletedCheckpoint second = CheckpointTestData.incremental(chk2, List.of(again));
        chk2.writeMetadata(second); // wrong order
        assertThatThrownBy(() -> store.addCheckpointAndSubsumeOldestOne(second))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("Checkpoint 2").hasMessageContaining("registerSharedStates")
                .hasMessageContaining(path(again).toString());
        assertThat(path(again)).exists(); // nothing deleted
        assertThat(store.getAllCheckpoints()).hasSize(1);
    }

    @Test
    void shutdownDiscardsOrKeeps() throws IOException {
        DefaultCompletedCheckpointStore store = new DefaultCompletedCheckpointStore(2);
        CheckpointStorageLocation chk1 = storage.initializeLocationForCheckpoint(1);
        HandleAndLocalPath a = sst(chk1, "a.sst");
        complete(chk1, CheckpointTestData.incremental(chk1, List.of(a)), store);
        store.shutdown(true);
        assertThat(Path.of(chk1.getExternalPointer())).doesNotExist();
        assertThat(path(a)).doesNotExist();
        assertThat(store.getAllCheckpoints()).isEmpty();
        assertThatThrownBy(() -> store.addCheckpointAndSubsumeOldestOne(
                CheckpointTestData.incremental(storage.initializeLocationForCheckpoint(2), List.of())))
                .isInstanceOf(IllegalStateException.class);

        DefaultCompletedCheckpointStore keeping = new DefaultCompletedCheckpointStore(2);
        CheckpointStorageLocation chk5 = storage.initializeLocationForCheckpoint(5);
        HandleAndLocalPath b = sst(chk5, "b.sst");
        complete(chk5, CheckpointTestData.incremental(chk5, List.of(b)), keeping);
        keeping.shutdown(false);
        assertThat(Path.of(chk5.getExternalPointer(), "_metadata")).exists();
        assertThat(path(b)).exists();
    }

    @Test
    void savepointsAreNeitherRetainedNorDeleted() throws IOException {
        DefaultCompletedCheckpointStore store = new DefaultCompletedCheckpointStore(1);
        CheckpointStorageLocation savepointLocation = storage.initializeLocationForSavepoint(1,
                tmp.resolve("sp").toString());
        CompletedCheckpoint savepoint = CheckpointTestData.everyHandleKind(savepointLocation, List.of(),
                CheckpointProperties.savepoint(SavepointFormatType.CANONICAL));
        savepointLocation.writeMetadata(savepoint);
        assertThat(store.addCheckpointAndSubsumeOldestOne(savepoint)).isEmpty();
        assertThat(store.getAllCheckpoints()).isEmpty();
        for (long id = 2; id <= 3; id++) {
            CheckpointStorageLocation location = storage.initializeLocationForCheckpoint(id);
            complete(location, CheckpointTestData.incremental(location, List.of()), store);
        }
        assertThat(Path.of(savepointLocation.getExternalPointer(), "_metadata")).exists();
    }

    @Test
    void anUnrestorableCheckpointLeavesTheStoreButKeepsItsFiles() throws IOException {
        DefaultCompletedCheckpointStore store = new DefaultCompletedCheckpointStore(3);
        CheckpointStorageLocation chk1 = storage.initializeLocationForCheckpoint(1);
        complete(chk1, CheckpointTestData.incremental(chk1, List.of()), store);
        CheckpointStorageLocation chk2 = storage.initializeLocationForCheckpoint(2);
        CompletedCheckpoint second = CheckpointTestData.incremental(chk2, List.of());
        complete(chk2, second, store);

        store.removeUnrestorable(second);
        assertThat(store.getLatestCheckpoint().getCheckpointID()).isEqualTo(1);
        assertThat(Path.of(chk2.getExternalPointer())).isDirectory();
        assertThatThrownBy(() -> new DefaultCompletedCheckpointStore(0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("state.checkpoints.num-retained");
    }

    @Test
    void recoverySkipsACheckpointThatDoesNotLoad() throws IOException {
        DefaultCompletedCheckpointStore store = new DefaultCompletedCheckpointStore(3);
        for (long id = 1; id <= 2; id++) {
            CheckpointStorageLocation location = storage.initializeLocationForCheckpoint(id);
            complete(location, CheckpointTestData.incremental(location, List.of()), store);
        }
        Path broken = Path.of(storage.findCompletedCheckpoints().get(0), "_metadata");
        Files.write(broken, new byte[] {1, 2, 3});
        DefaultCompletedCheckpointStore recovered = DefaultCompletedCheckpointStore.recover(storage, 3);
        assertThat(recovered.getAllCheckpoints()).extracting(CompletedCheckpoint::getCheckpointID).containsExactly(1L);
        assertThat(broken).exists();
    }
}
