package dev.runnel.runtime.state.storage;

import dev.runnel.runtime.checkpoint.CheckpointStorageLocation;
import dev.runnel.runtime.checkpoint.Checkpoints;
import dev.runnel.runtime.checkpoint.CompletedCheckpoint;
import dev.runnel.runtime.checkpoint.metadata.MetadataSerializer;
import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.CheckpointedStateScope;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.Objects;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The folder one checkpoint or savepoint is written into, on a local file system.
 *
 * <p>Streams of {@link CheckpointedStateScope#EXCLUSIVE EXCLUSIVE} state become files in the folder
 * ({@code chk-N/<uuid>}); {@link CheckpointedStateScope#SHARED SHARED} state goes to the job's
 * {@code shared/} folder, except in a savepoint, which keeps everything in its own folder so it can be
 * moved. Blobs up to the memory threshold stay in memory and end up inline in the metadata.
 *
 * <p>{@link #writeMetadata} writes {@code _metadata} to a temporary file in the folder, forces it to
 * disk, renames it atomically and forces the folder: the file is complete or absent, never partial.
 * {@link #disposeOnFailure()} deletes the folder and the shared files this location created (no checkpoint
 * can refer to those: only completed checkpoints' files are reused), and makes every later call fail.
 *
 * <p>Thread-safe: the asynchronous parts of several snapshots create streams at once.
 */
public final class FsCheckpointStorageLocation implements CheckpointStorageLocation, java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /** The prefix of a {@code _metadata} file being written; a file with it is garbage after a crash. */
    static final String METADATA_TEMP_PREFIX = Checkpoints.METADATA_FILE_NAME + ".inprogress-";

    private final long checkpointId;
    private final Path folder;
    private final Path sharedFolder;
    private final int writeBufferSize;
    private final int memoryThreshold;
    private final Set<Path> sharedFilesCreated = ConcurrentHashMap.newKeySet();
    private volatile boolean disposed;

    /** A test seam: runs after the temporary metadata file is written, before the rename. */
    interface MetadataWriteHook {
        void beforeRename(Path tempFile) throws IOException;
    }

    private final MetadataWriteHook hook;

    FsCheckpointStorageLocation(long checkpointId, Path folder, Path sharedFolder, int writeBufferSize,
            int memoryThreshold, MetadataWriteHook hook) {
        this.checkpointId = checkpointId;
        this.folder = Objects.requireNonNull(folder, "folder");
        this.sharedFolder = Objects.requireNonNull(sharedFolder, "sharedFolder");
        this.writeBufferSize = writeBufferSize;
        this.memoryThreshold = memoryThreshold;
        this.hook = hook;
    }

    /**
     * A copy that travels to a TaskManager of a cluster: the folders and settings, not the files this location
     * created nor the test hook (tasks there write files; cleaning up after a failed checkpoint stays the
     * JobManager's, by folder).
     */
    private Object writeReplace() {
        return new SerialForm(checkpointId, folder.toString(), sharedFolder.toString(), writeBufferSize, memoryThreshold);
    }

    private record SerialForm(long checkpointId, String folder, String sharedFolder, int writeBufferSize,
            int memoryThreshold) implements java.io.Serializable {
        private Object readResolve() {
            return new FsCheckpointStorageLocation(checkpointId, Path.of(folder), Path.of(sharedFolder),
                    writeBufferSize, memoryThreshold, null);
        }
    }

    @Override
    public long getCheckpointId() {
        return checkpointId;
    }

    @Override
    public String getExternalPointer() {
        return folder.toString();
    }

    /** The folder as a path. */
    public Path getCheckpointDirectory() {
        return folder;
    }

    @Override
    public CheckpointStateOutputStream createCheckpointStateOutputStream(CheckpointedStateScope scope)
            throws IOException {
        checkNotDisposed();
        boolean shared = scope == CheckpointedStateScope.SHARED;
        Path target = (shared ? sharedFolder : folder).resolve(UUID.randomUUID().toString());
        return new FsCheckpointStateOutputStream(target, writeBufferSize, memoryThreshold,
                "checkpoint " + checkpointId + " state " + target.getFileName() + " (inline)",
                shared ? sharedFilesCreated::add : created -> {});
    }

    @Override
    public void writeMetadata(CompletedCheckpoint checkpoint) throws IOException {
        checkNotDisposed();
        if (checkpoint.getCheckpointID() != checkpointId) {
            throw new IllegalArgumentException("checkpoint " + checkpoint.getCheckpointID()
                    + " cannot be written into the location of checkpoint " + checkpointId + " (" + folder + ")");
        }
        Path target = folder.resolve(Checkpoints.METADATA_FILE_NAME);
        if (Files.exists(target)) {
            throw new IOException("Checkpoint " + checkpointId + " already has a metadata file " + target
                    + "; a checkpoint's metadata is written once");
        }
        // Serialized first, so a handle the format does not know fails before any file exists.
        byte[] bytes = MetadataSerializer.serialize(checkpoint, folder);
        Path temp = folder.resolve(METADATA_TEMP_PREFIX + UUID.randomUUID());
        try {
            try (FileChannel channel = FileChannel.open(temp, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
                channel.force(true);
            }
            if (hook != null) {
                hook.beforeRename(temp);
            }
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException | RuntimeException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw new IOException("Could not write the metadata of checkpoint " + checkpointId + " to " + target
                    + ": " + e.getMessage() + ". The checkpoint is not complete and its temporary metadata file was deleted", e);
        }
        StorageFiles.fsyncDirectory(folder);
    }

    @Override
    public void disposeOnFailure() throws IOException {
        disposed = true;
        IOException failure = null;
        for (Path file : sharedFilesCreated) {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                failure = e;
            }
        }
        try {
            StorageFiles.deleteRecursively(folder);
        } catch (IOException e) {
            if (failure != null) {
                e.addSuppressed(failure);
            }
            failure = e;
        }
        if (failure != null) {
            throw new IOException("Could not delete all files of failed checkpoint " + checkpointId + " in "
                    + folder + " and " + sharedFolder + ": " + failure.getMessage(), failure);
        }
    }

    private void checkNotDisposed() throws IOException {
        if (disposed) {
            throw new IOException("The location of checkpoint " + checkpointId + " (" + folder
                    + ") was disposed: the checkpoint failed or was aborted");
        }
    }

    @Override
    public String toString() {
        return "FsCheckpointStorageLocation{" + checkpointId + " @ " + folder + '}';
    }
}
