package dev.runnel.runtime.state.storage;

import static dev.runnel.runtime.checkpoint.CheckpointTestData.FILE_SIZE;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.JOB_ID;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.bytes;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.read;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.checkpoint.CheckpointProperties;
import dev.runnel.runtime.checkpoint.CheckpointTestData;
import dev.runnel.runtime.checkpoint.CompletedCheckpoint;
import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle.HandleAndLocalPath;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FileSystemCheckpointStorageTest {

    private static final int THRESHOLD = 1024;

    @TempDir
    Path tmp;

    private FsCheckpointStorageAccess storage() throws IOException {
        return new FileSystemCheckpointStorage(tmp.resolve("checkpoints").toUri().toString(),
                tmp.resolve("savepoints").toString(), THRESHOLD).createCheckpointStorage(JOB_ID);
    }

    private static List<String> names(Path folder) throws IOException {
        try (Stream<Path> files = Files.list(folder)) {
            return files.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void createsTheJobLayoutFromAFileUri() throws IOException {
        FsCheckpointStorageAccess storage = storage();
        Path job = tmp.resolve("checkpoints").resolve(JOB_ID);
        assertThat(storage.getJobDirectory()).isEqualTo(job);
        assertThat(names(job)).containsExactly("shared", "taskowned");

        FsCheckpointStorageLocation location = storage.initializeLocationForCheckpoint(7);
        assertThat(location.getExternalPointer()).isEqualTo(job.resolve("chk-7").toString());
        FileStateHandle exclusive = (FileStateHandle) write(location, CheckpointedStateScope.EXCLUSIVE,
                bytes(FILE_SIZE, 1));
        FileStateHandle shared = (FileStateHandle) write(location, CheckpointedStateScope.SHARED, bytes(FILE_SIZE, 2));
        assertThat(exclusive.getFilePath().getParent()).isEqualTo(job.resolve("chk-7"));
        assertThat(shared.getFilePath().getParent()).isEqualTo(job.resolve("shared"));
        // Unique (UUID) names.
        assertThat(exclusive.getFilePath().getFileName().toString()).matches("[0-9a-f-]{36}");
        assertThat(read(exclusive)).isEqualTo(bytes(FILE_SIZE, 1));
        assertThat(exclusive.getStateSize()).isEqualTo(FILE_SIZE).isEqualTo(Files.size(exclusive.getFilePath()));

        assertThatThrownBy(() -> storage.initializeLocationForCheckpoint(7)).isInstanceOf(IOException.class)
                .hasMessageContaining(job.resolve("chk-7").toString()).hasMessageContaining("already exists");
    }

    @Test
    void roundTripOfEveryHandleKind() throws IOException {
        FsCheckpointStorageAccess storage = storage();
        FsCheckpointStorageLocation location = storage.initializeLocationForCheckpoint(3);
        List<HandleAndLocalPath> shared = List.of(
                new HandleAndLocalPath("000007.sst", write(location, CheckpointedStateScope.SHARED, bytes(FILE_SIZE, 9))),
                new HandleAndLocalPath("000008.sst", write(location, CheckpointedStateScope.SHARED, bytes(10, 10))));
        CompletedCheckpoint checkpoint = CheckpointTestData.everyHandleKind(location, shared,
                CheckpointProperties.CHECKPOINT);

        assertThat(storage.findCompletedCheckpoints()).isEmpty();
        location.writeMetadata(checkpoint);

        CompletedCheckpoint loaded = storage.loadCheckpoint(location.getExternalPointer());
        assertThat(loaded).usingRecursiveComparison().isEqualTo(checkpoint);
        assertThat(loaded.getStateSize()).isEqualTo(checkpoint.getStateSize());
        // By the _metadata file too.
        assertThat(storage.loadCheckpoint(location.getExternalPointer() + "/_metadata"))
                .usingRecursiveComparison().isEqualTo(checkpoint);

        KeyGroupsStateHandle keyed = (KeyGroupsStateHandle) loaded.getOperatorStates().get("node-3-Sum").getState(0)
                .managedKeyedState().get(0);
        assertThat(keyed.getKeyGroupRangeOffsets().getKeyGroupOffset(63)).isEqualTo(63 * 70L);
        assertThat(read(keyed.getDelegateStateHandle())).isEqualTo(bytes(FILE_SIZE, 1));
        OperatorStateHandle operator = loaded.getOperatorStates().get("node-0-Source: ünïcødé").getState(0)
                .managedOperatorState().get(0);
        assertThat(operator.getStateNameToPartitionOffsets().get("union").distributionMode())
                .isEqualTo(OperatorStateHandle.Mode.UNION);
        assertThat(storage.findCompletedCheckpoints()).containsExactly(location.getExternalPointer());
    }

    @Test
    void metadataAppearsAtomicallyAndLeavesNoTemporaryFile() throws IOException {
        FsCheckpointStorageAccess storage = storage();
        FsCheckpointStorageLocation location = storage.initializeLocationForCheckpoint(1);
        CompletedCheckpoint checkpoint = CheckpointTestData.everyHandleKind(location, List.of(),
                CheckpointProperties.CHECKPOINT);
        Path folder = location.getCheckpointDirectory();
        assertThat(folder.resolve("_metadata")).doesNotExist();
        assertThat(storage.findCompletedCheckpoints()).isEmpty();

        location.writeMetadata(checkpoint);
        assertThat(folder.resolve("_metadata")).isRegularFile();
        assertThat(names(folder)).noneMatch(n -> n.startsWith(FsCheckpointStorageLocation.METADATA_TEMP_PREFIX));
        assertThatThrownBy(() -> location.writeMetadata(checkpoint)).isInstanceOf(IOException.class)
                .hasMessageContaining("already has a metadata file");
    }

    @Test
    void aFailedMetadataWriteLeavesNeitherMetadataNorTemporaryFile() throws IOException {
        FsCheckpointStorageAccess storage = storage();
        Path[] seen = new Path[1];
        storage.setMetadataWriteHook(temp -> {
            seen[0] = temp;
            assertThat(temp).isRegularFile();
            throw new IOException("disk full (injected)");
        });
        FsCheckpointStorageLocation location = storage.initializeLocationForCheckpoint(1);
        CompletedCheckpoint checkpoint = CheckpointTestData.everyHandleKind(location, List.of(),
                CheckpointProperties.CHECKPOINT);

        assertThatThrownBy(() -> location.writeMetadata(checkpoint)).isInstanceOf(IOException.class)
                .hasMessageContaining("disk full (injected)")
                .hasMessageContaining(location.getCheckpointDirectory().resolve("_metadata").toString());
        assertThat(seen[0]).doesNotExist();
        assertThat(names(location.getCheckpointDirectory()))
                .noneMatch(n -> n.startsWith("_metadata"));
        assertThat(storage.findCompletedCheckpoints()).isEmpty();
    }

    @Test
    void blobsUpToTheThresholdStayInline() throws IOException {
        FsCheckpointStorageLocation location = storage().initializeLocationForCheckpoint(1);
        Path folder = location.getCheckpointDirectory();

        StreamStateHandle atThreshold = write(location, CheckpointedStateScope.EXCLUSIVE, bytes(THRESHOLD, 1));
        assertThat(atThreshold).isInstanceOf(ByteStreamStateHandle.class);
        assertThat(((ByteStreamStateHandle) atThreshold).getData()).isEqualTo(bytes(THRESHOLD, 1));
        assertThat(write(location, CheckpointedStateScope.EXCLUSIVE, new byte[0])).isInstanceOf(ByteStreamStateHandle.class);
        assertThat(names(folder)).isEmpty();

        StreamStateHandle above = write(location, CheckpointedStateScope.EXCLUSIVE, bytes(THRESHOLD + 1, 2));
        assertThat(above).isInstanceOf(FileStateHandle.class);
        assertThat(above.getStateSize()).isEqualTo(THRESHOLD + 1);
        assertThat(read(above)).isEqualTo(bytes(THRESHOLD + 1, 2));

        // Byte by byte, past the buffer several times: the buffer writes through and the position is exact.
        try (CheckpointStateOutputStream out = location.createCheckpointStateOutputStream(
                CheckpointedStateScope.EXCLUSIVE)) {
            byte[] data = bytes(3 * THRESHOLD + 17, 3);
            for (byte b : data) {
                out.write(b);
            }
            assertThat(out.getPos()).isEqualTo(data.length);
            assertThat(read(out.closeAndGetHandle())).isEqualTo(data);
        }

        // Threshold 0: everything but nothing goes to a file.
        FsCheckpointStorageLocation noInline = new FileSystemCheckpointStorage(tmp.resolve("zero").toString(), null, 0)
                .createCheckpointStorage(JOB_ID).initializeLocationForCheckpoint(1);
        assertThat(write(noInline, CheckpointedStateScope.EXCLUSIVE, new byte[] {1})).isInstanceOf(FileStateHandle.class);
        assertThatThrownBy(() -> new FileSystemCheckpointStorage(tmp.toString(), null, 2 << 20))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("state.storage.fs.memory-threshold");
        assertThat(new FileSystemCheckpointStorage(tmp.toString()).getMinFileSizeThreshold()).isEqualTo(20 * 1024);
    }

    @Test
    void anAbandonedOrFailedStreamLeavesNoFile() throws IOException {
        FsCheckpointStorageLocation location = storage().initializeLocationForCheckpoint(1);
        Path folder = location.getCheckpointDirectory();
        CheckpointStateOutputStream abandoned = location.createCheckpointStateOutputStream(
                CheckpointedStateScope.EXCLUSIVE);
        abandoned.write(bytes(FILE_SIZE, 1));
        assertThat(names(folder)).hasSize(1);
        abandoned.close();
        assertThat(names(folder)).isEmpty();
        assertThatThrownBy(() -> abandoned.write(1)).isInstanceOf(IOException.class).hasMessageContaining("closed");

        // The folder goes away under a stream: writing out fails with the file named, and nothing is left.
        CheckpointStateOutputStream failing = location.createCheckpointStateOutputStream(
                CheckpointedStateScope.EXCLUSIVE);
        failing.write(bytes(10, 2));
        StorageFiles.deleteRecursively(folder);
        assertThatThrownBy(() -> failing.write(bytes(FILE_SIZE, 3))).isInstanceOf(IOException.class)
                .hasMessageContaining(folder.toString()).hasMessageContaining("partial file was deleted");
        assertThat(folder).doesNotExist();
    }

    @Test
    void disposeOnFailureLeavesNoFiles() throws IOException {
        FsCheckpointStorageAccess storage = storage();
        FsCheckpointStorageLocation location = storage.initializeLocationForCheckpoint(4);
        write(location, CheckpointedStateScope.EXCLUSIVE, bytes(FILE_SIZE, 1));
        FileStateHandle shared = (FileStateHandle) write(location, CheckpointedStateScope.SHARED, bytes(FILE_SIZE, 2));
        FileStateHandle otherShared = (FileStateHandle) write(storage.initializeLocationForCheckpoint(5),
                CheckpointedStateScope.SHARED, bytes(FILE_SIZE, 3));

        location.disposeOnFailure();
        assertThat(location.getCheckpointDirectory()).doesNotExist();
        assertThat(shared.getFilePath()).doesNotExist();
        assertThat(otherShared.getFilePath()).exists();
        assertThatThrownBy(() -> location.createCheckpointStateOutputStream(CheckpointedStateScope.EXCLUSIVE))
                .isInstanceOf(IOException.class).hasMessageContaining("disposed");
    }

    @Test
    void findsCompletedCheckpointsNewestFirst() throws IOException {
        FsCheckpointStorageAccess storage = storage();
        for (long id : new long[] {2, 10, 3}) {
            FsCheckpointStorageLocation location = storage.initializeLocationForCheckpoint(id);
            location.writeMetadata(CheckpointTestData.everyHandleKind(location, List.of(),
                    CheckpointProperties.CHECKPOINT));
        }
        storage.initializeLocationForCheckpoint(11); // never completed
        Files.createDirectories(storage.getJobDirectory().resolve("chk-x"));
        Path job = storage.getJobDirectory();
        assertThat(storage.findCompletedCheckpoints()).containsExactly(job.resolve("chk-10").toString(),
                job.resolve("chk-3").toString(), job.resolve("chk-2").toString());
    }

    @Test
    void aMovedSavepointLoadsAndReadsFromWhereItIsNow() throws IOException {
        FsCheckpointStorageAccess storage = storage();
        FsCheckpointStorageLocation location = storage.initializeLocationForSavepoint(12, null);
        Path folder = location.getCheckpointDirectory();
        assertThat(folder.getParent()).isEqualTo(tmp.resolve("savepoints"));
        assertThat(folder.getFileName().toString()).matches("savepoint-a1b2c3-[0-9a-f]{12}");

        // Shared-scope state of a savepoint stays in its folder, so the folder is self-contained.
        List<HandleAndLocalPath> shared = List.of(new HandleAndLocalPath("000009.sst",
                write(location, CheckpointedStateScope.SHARED, bytes(FILE_SIZE, 11))));
        assertThat(((FileStateHandle) shared.get(0).handle()).getFilePath().getParent()).isEqualTo(folder);
        CompletedCheckpoint savepoint = CheckpointTestData.everyHandleKind(location, shared,
                CheckpointProperties.savepoint(SavepointFormatType.NATIVE));
        location.writeMetadata(savepoint);

        Path moved = Files.createDirectories(tmp.resolve("elsewhere")).resolve("my-savepoint");
        Files.move(folder, moved);
        CompletedCheckpoint loaded = storage.loadCheckpoint(moved.toUri().toString());
        assertThat(loaded.getExternalPointer()).isEqualTo(moved.toString());
        assertThat(loaded.getProperties()).isEqualTo(CheckpointProperties.savepoint(SavepointFormatType.NATIVE));
        KeyGroupsStateHandle keyed = (KeyGroupsStateHandle) loaded.getOperatorStates().get("node-3-Sum").getState(0)
                .managedKeyedState().get(0);
        assertThat(((FileStateHandle) keyed.getDelegateStateHandle()).getFilePath().getParent()).isEqualTo(moved);
        assertThat(read(keyed.getDelegateStateHandle())).isEqualTo(bytes(FILE_SIZE, 1));

        Path other = tmp.resolve("target");
        assertThat(storage.initializeLocationForSavepoint(13, other.toString()).getCheckpointDirectory().getParent())
                .isEqualTo(other);
    }

    @Test
    void anUnwritableBaseDirectoryIsNamed() throws IOException {
        // Root ignores permissions, so the check cannot be provoked that way then.
        assumeTrue(!"root".equals(System.getProperty("user.name")) && !isRoot(), "running as root");
        File base = Files.createDirectories(tmp.resolve("readonly")).toFile();
        assertThat(base.setWritable(false, false)).isTrue();
        try {
            assertThatThrownBy(() -> new FileSystemCheckpointStorage(base.toString()).createCheckpointStorage(JOB_ID))
                    .isInstanceOf(IOException.class).hasMessageContaining(base.toPath().resolve(JOB_ID).toString());
        } finally {
            base.setWritable(true, false);
        }
    }

    @Test
    void aFileInTheWayOfTheBaseDirectoryIsNamed() throws IOException {
        // Works as root too.
        Path file = Files.writeString(tmp.resolve("not-a-folder"), "x");
        assertThatThrownBy(() -> new FileSystemCheckpointStorage(file.toString()).createCheckpointStorage(JOB_ID))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Cannot create the checkpoint directory of job " + JOB_ID)
                .hasMessageContaining(file.resolve(JOB_ID).toString());
    }

    private static boolean isRoot() {
        try {
            return Files.getOwner(Path.of("/proc/self")).getName().equals("root");
        } catch (IOException | UnsupportedOperationException e) {
            return false;
        }
    }
}
