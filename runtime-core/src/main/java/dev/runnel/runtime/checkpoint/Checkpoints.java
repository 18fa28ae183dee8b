package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.checkpoint.metadata.MetadataSerializer;
import dev.runnel.runtime.checkpoint.metadata.MetadataSerializer.LoadedMetadata;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/**
 * Finding and loading the {@code _metadata} of a checkpoint or savepoint from a pointer: the folder
 * ({@code .../<job id>/chk-7}, {@code .../savepoint-3f2a1b-0c9d8e7f6a5b}), the {@code _metadata} file in it,
 * or either as a {@code file:} URI. Loading checks the file (see {@link MetadataSerializer}) and then that
 * every state file it names exists and is at least as long as recorded, so a restore fails before any task
 * starts rather than half way through.
 *
 * <p>Every failure is an {@link IOException} whose message names the file, the problem and what to do.
 * Stateless and thread-safe.
 */
public final class Checkpoints {

    /** The name of the metadata file in a checkpoint or savepoint folder. */
    public static final String METADATA_FILE_NAME = "_metadata";

    private Checkpoints() {}

    /** The {@code _metadata} file {@code pointer} (a folder or the file itself) refers to; checks it exists. */
    public static Path resolveMetadataFile(String pointer) throws IOException {
        Path path = toLocalPath(pointer);
        if (!Files.exists(path)) {
            throw new IOException(String.format("Cannot load checkpoint %s: it does not exist. Check the path"
                    + " (a chk-N folder under state.checkpoints.dir/<job id>, a savepoint folder, or the _metadata"
                    + " file in one of them).", path));
        }
        if (Files.isDirectory(path)) {
            Path metadata = path.resolve(METADATA_FILE_NAME);
            if (!Files.isRegularFile(metadata)) {
                throw new IOException(String.format("Cannot load checkpoint %s: the folder has no %s file, so the"
                        + " checkpoint never completed or was partly deleted. Restore from another checkpoint (a"
                        + " chk-N folder with a _metadata file) or a savepoint.", path, METADATA_FILE_NAME));
            }
            return metadata;
        }
        return path;
    }

    /**
     * Loads the checkpoint or savepoint at {@code pointer} and checks its state files. Its external pointer
     * is the folder it was loaded from (which may differ from where it was written: savepoints move).
     */
    public static CompletedCheckpoint loadCheckpointMetadata(String pointer) throws IOException {
        Path metadataFile = resolveMetadataFile(pointer);
        byte[] data;
        try {
            data = Files.readAllBytes(metadataFile);
        } catch (IOException e) {
            throw new IOException(String.format("Cannot read checkpoint metadata file %s: %s", metadataFile, e), e);
        }
        LoadedMetadata loaded = MetadataSerializer.deserialize(data, metadataFile);
        verifyStateFiles(loaded, metadataFile);
        return loaded.checkpoint();
    }

    private static void verifyStateFiles(LoadedMetadata loaded, Path metadataFile) throws IOException {
        CompletedCheckpoint checkpoint = loaded.checkpoint();
        for (FileStateHandle file : loaded.files()) {
            Path path = file.getFilePath();
            long size;
            try {
                size = Files.size(path);
            } catch (NoSuchFileException e) {
                throw new IOException(String.format("%s (%s) refers to state file %s, which does not exist. The"
                        + " checkpoint's files were deleted or moved without it; restore from another checkpoint"
                        + " or savepoint.", describe(checkpoint), metadataFile.toAbsolutePath(), path), e);
            }
            if (size < file.getStateSize()) {
                throw new IOException(String.format("%s (%s) refers to state file %s of %d bytes, but the file has"
                        + " only %d. It was cut short; restore from another checkpoint or savepoint.",
                        describe(checkpoint), metadataFile.toAbsolutePath(), path, file.getStateSize(), size));
            }
        }
    }

    private static String describe(CompletedCheckpoint checkpoint) {
        return (checkpoint.getProperties().savepoint() ? "Savepoint " : "Checkpoint ") + checkpoint.getCheckpointID();
    }

    /** A local path from a plain path or a {@code file:} URI. */
    static Path toLocalPath(String pointer) {
        return new dev.runnel.core.fs.Path(pointer).toLocalPath().toAbsolutePath().normalize();
    }
}
