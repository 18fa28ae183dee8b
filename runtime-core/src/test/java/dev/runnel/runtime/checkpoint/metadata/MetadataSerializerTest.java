package dev.runnel.runtime.checkpoint.metadata;

import static dev.runnel.runtime.checkpoint.CheckpointTestData.FILE_SIZE;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.JOB_ID;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.bytes;
import static dev.runnel.runtime.checkpoint.CheckpointTestData.write;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.runtime.checkpoint.CheckpointProperties;
import dev.runnel.runtime.checkpoint.CheckpointStorageAccess;
import dev.runnel.runtime.checkpoint.CheckpointStorageLocation;
import dev.runnel.runtime.checkpoint.CheckpointTestData;
import dev.runnel.runtime.checkpoint.Checkpoints;
import dev.runnel.runtime.checkpoint.CompletedCheckpoint;
import dev.runnel.runtime.checkpoint.OperatorState;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import dev.runnel.runtime.state.storage.FileSystemCheckpointStorage;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.zip.CRC32;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The format's frame and every way loading a checkpoint can fail, with the message the user sees. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class MetadataSerializerTest {

    @TempDir
    Path tmp;

    private CheckpointStorageAccess storage;
    private CheckpointStorageLocation location;
    private CompletedCheckpoint checkpoint;
    private Path metadata;

    @BeforeEach
    void writeACheckpoint() throws IOException {
        storage = new FileSystemCheckpointStorage(tmp.toString(), null, 1024).createCheckpointStorage(JOB_ID);
        location = storage.initializeLocationForCheckpoint(5);
        checkpoint = CheckpointTestData.everyHandleKind(location, List.of(), CheckpointProperties.CHECKPOINT);
        location.writeMetadata(checkpoint);
        metadata = Path.of(location.getExternalPointer()).resolve(Checkpoints.METADATA_FILE_NAME);
    }

    private void assertLoadFails(String... fragments) {
        var thrown = assertThatThrownBy(() -> storage.loadCheckpoint(location.getExternalPointer()))
                .isInstanceOf(IOException.class);
        for (String fragment : fragments) {
            thrown.hasMessageContaining(fragment);
        }
    }

    @Test
    void theFrameIsMagicVersionLengthBodyAndChecksum() throws IOException {
        byte[] data = Files.readAllBytes(metadata);
        ByteBuffer buffer = ByteBuffer.wrap(data);
        assertThat(buffer.getInt()).isEqualTo(0x524E4D44);
        assertThat(buffer.getInt()).isEqualTo(2);
        assertThat(buffer.getLong()).isEqualTo(data.length - 20L);
        CRC32 crc = new CRC32();
        crc.update(data, 0, data.length - 4);
        assertThat(buffer.getInt(data.length - 4)).isEqualTo((int) crc.getValue());
        // Deterministic: the same checkpoint gives the same bytes.
        assertThat(MetadataSerializer.serialize(checkpoint, metadata.getParent())).isEqualTo(data);
    }

    @Test
    void inputChannelStateRoundTrips() throws IOException {
        CompletedCheckpoint loaded = MetadataSerializer.deserialize(Files.readAllBytes(metadata), metadata).checkpoint();
        var channels = loaded.getOperatorStates().get("node-3-Sum").getState(0).inputChannelState();
        assertThat(channels).extracting(h -> h.gateIndex() + " " + h.edgeId() + " " + h.producerSubtask() + " "
                + h.records()).containsExactly("0 edge-0-3 1 3", "1 edge-2-3 0 40");
        assertThat(channels.get(0).delegate()).isInstanceOf(ByteStreamStateHandle.class);
        assertThat(channels.get(1).delegate()).isInstanceOf(FileStateHandle.class);
        assertThat(loaded).usingRecursiveComparison().isEqualTo(checkpoint);
        assertThat(loaded.getOperatorStates().get("node-3-Sum").getState(1).inputChannelState()).isEmpty();
    }

    @Test
    void aVersion1FileWithoutChannelStateIsStillRead() throws IOException {
        // Version 1 is the format before unaligned checkpoints: no channel state count per subtask.
        OperatorState source = checkpoint.getOperatorStates().get("node-0-Source: ünïcødé");
        CompletedCheckpoint old = new CompletedCheckpoint(JOB_ID, 5, 1, 2, Map.of(source.getOperatorID(), source),
                CheckpointProperties.CHECKPOINT, location.getExternalPointer());
        byte[] v1 = MetadataSerializer.serialize(old, metadata.getParent(), 1);
        assertThat(ByteBuffer.wrap(v1).getInt(4)).isEqualTo(1);
        CompletedCheckpoint loaded = MetadataSerializer.deserialize(v1, metadata).checkpoint();
        assertThat(loaded).usingRecursiveComparison().isEqualTo(old);
        // One int per subtask shorter than version 2.
        assertThat(MetadataSerializer.serialize(old, metadata.getParent()).length - v1.length).isEqualTo(4);
        assertThatThrownBy(() -> MetadataSerializer.serialize(checkpoint, metadata.getParent(), 1))
                .hasMessageContaining("version 1 cannot hold input channel state");
    }

    @Test
    void aMissingFolderOrMetadataFile() throws IOException {
        Path missing = tmp.resolve("nope").resolve("chk-9");
        assertThatThrownBy(() -> storage.loadCheckpoint(missing.toString())).isInstanceOf(IOException.class)
                .hasMessage("Cannot load checkpoint " + missing + ": it does not exist. Check the path (a chk-N folder"
                        + " under state.checkpoints.dir/<job id>, a savepoint folder, or the _metadata file in one of"
                        + " them).");
        Files.delete(metadata);
        assertLoadFails("Cannot load checkpoint " + location.getExternalPointer() + ": the folder has no _metadata"
                + " file, so the checkpoint never completed or was partly deleted. Restore from another checkpoint");
    }

    @Test
    void aTruncatedFile() throws IOException {
        byte[] data = Files.readAllBytes(metadata);
        Files.write(metadata, Arrays.copyOf(data, data.length / 2));
        assertLoadFails("Checkpoint metadata file " + metadata + " is truncated: it has " + data.length / 2
                + " bytes, but its header announces " + data.length + ". It was not written completely or was cut"
                + " short when copied; restore from another checkpoint (a chk-N folder with a _metadata file) or a"
                + " savepoint.");
        Files.write(metadata, Arrays.copyOf(data, 10));
        assertLoadFails(metadata + " is truncated: it has 10 bytes, but even an empty one has 20");
        Files.write(metadata, new byte[0]);
        assertLoadFails(metadata + " is truncated: it has 0 bytes");
    }

    @Test
    void notAMetadataFile() throws IOException {
        Files.writeString(metadata, "{\"this\": \"is json, not a checkpoint\"}");
        assertLoadFails(metadata + " is not a Runnel checkpoint metadata file: it starts with 0x7B227468 instead of"
                + " the magic number 0x524E4D44. Point the restore at the _metadata file or the folder");
    }

    @Test
    void anUnknownVersion() throws IOException {
        patch(4, ByteBuffer.allocate(4).putInt(7).array(), true);
        assertLoadFails("Checkpoint metadata file " + metadata + " has format version 7, which this Runnel cannot"
                + " read (it reads versions 1 to 2). Restore it with the Runnel version that wrote it, or restore from"
                + " another checkpoint");
    }

    @Test
    void aDamagedByte() throws IOException {
        byte[] data = Files.readAllBytes(metadata);
        data[40] ^= 0x10;
        Files.write(metadata, data);
        assertLoadFails("Checkpoint metadata file " + metadata + " is corrupt: its CRC32 checksum is 0x",
                "The file was damaged after it was written; restore from another checkpoint");
    }

    @Test
    void appendedBytes() throws IOException {
        Files.write(metadata, new byte[] {1, 2, 3}, StandardOpenOption.APPEND);
        assertLoadFails(metadata + " is corrupt: it has", "Something was appended to it");
    }

    @Test
    void anUnknownHandleTagWithAValidChecksum() throws IOException {
        // The coordinator state of operator "tagged" is an inline handle named MARKER: tag byte, then the name's
        // length, then the name. Change the tag and fix the checksum, as a newer writer would have.
        CheckpointStorageLocation tagged = storage.initializeLocationForCheckpoint(6);
        OperatorState operator = new OperatorState("tagged", 1, 1, Map.of(),
                new ByteStreamStateHandle("MARKER", new byte[] {42}));
        tagged.writeMetadata(new CompletedCheckpoint(JOB_ID, 6, 1, 2, Map.of("tagged", operator),
                CheckpointProperties.CHECKPOINT, tagged.getExternalPointer()));
        metadata = Path.of(tagged.getExternalPointer(), "_metadata");
        byte[] data = Files.readAllBytes(metadata);
        int tagAt = indexOf(data, "MARKER".getBytes(StandardCharsets.UTF_8)) - 5;
        assertThat(data[tagAt]).isEqualTo((byte) 1);
        patch(tagAt, new byte[] {99}, true);
        assertThatThrownBy(() -> storage.loadCheckpoint(tagged.getExternalPointer())).isInstanceOf(IOException.class)
                .hasMessage("Checkpoint metadata file " + metadata + " has an unknown state handle type tag 99 at byte "
                        + tagAt + " (operator tagged, where a stream state handle was expected). It was written by a"
                        + " newer Runnel or is corrupt; restore it with the Runnel version that wrote it, or restore"
                        + " from another checkpoint (a chk-N folder with a _metadata file) or a savepoint.");
    }

    @Test
    void aMissingStateFile() throws IOException {
        FileStateHandle file = firstFile();
        Files.delete(file.getFilePath());
        assertLoadFails("Checkpoint 5 (" + metadata + ") refers to state file " + file.getFilePath() + ", which does"
                + " not exist. The checkpoint's files were deleted or moved without it; restore from another"
                + " checkpoint or savepoint.");
    }

    @Test
    void aStateFileShorterThanRecorded() throws IOException {
        FileStateHandle file = firstFile();
        try (FileChannel channel = FileChannel.open(file.getFilePath(), StandardOpenOption.WRITE)) {
            channel.truncate(100);
        }
        assertLoadFails("Checkpoint 5 (" + metadata + ") refers to state file " + file.getFilePath() + " of "
                + FILE_SIZE + " bytes, but the file has only 100. It was cut short; restore from another checkpoint"
                + " or savepoint.");
    }

    @Test
    void aHandleTheFormatDoesNotKnowIsRefusedBeforeAnyFileIsWritten() throws IOException {
        CheckpointStorageLocation other = storage.initializeLocationForCheckpoint(8);
        OperatorState operator = new OperatorState("odd", 1, 1, Map.of(), new OddHandle());
        CompletedCheckpoint odd = new CompletedCheckpoint(JOB_ID, 8, 1, 2, Map.of("odd", operator),
                CheckpointProperties.CHECKPOINT, other.getExternalPointer());
        assertThatThrownBy(() -> other.writeMetadata(odd)).isInstanceOf(IOException.class)
                .hasMessageContaining(OddHandle.class.getName()).hasMessageContaining("needs a type tag");
        try (var files = Files.list(Path.of(other.getExternalPointer()))) {
            assertThat(files).isEmpty();
        }
        write(other, CheckpointedStateScope.EXCLUSIVE, bytes(1, 1)); // the location is still usable
    }

    private FileStateHandle firstFile() throws IOException {
        return MetadataSerializer.deserialize(Files.readAllBytes(metadata), metadata).files().get(0);
    }

    private void patch(int offset, byte[] replacement, boolean fixChecksum) throws IOException {
        byte[] data = Files.readAllBytes(metadata);
        System.arraycopy(replacement, 0, data, offset, replacement.length);
        if (fixChecksum) {
            CRC32 crc = new CRC32();
            crc.update(data, 0, data.length - 4);
            ByteBuffer.wrap(data).putInt(data.length - 4, (int) crc.getValue());
        }
        Files.write(metadata, data);
    }

    private static int indexOf(byte[] data, byte[] pattern) {
        outer:
        for (int i = 0; i <= data.length - pattern.length; i++) {
            for (int j = 0; j < pattern.length; j++) {
                if (data[i + j] != pattern[j]) {
                    continue outer;
                }
            }
            return i;
        }
        throw new AssertionError("pattern not found");
    }

    private static final class OddHandle implements dev.runnel.runtime.state.StreamStateHandle {
        @Override
        public java.nio.channels.SeekableByteChannel openChannel() {
            throw new UnsupportedOperationException();
        }

        @Override
        public long getStateSize() {
            return 0;
        }

        @Override
        public String describe() {
            return "odd";
        }

        @Override
        public void discardState() {}
    }
}
