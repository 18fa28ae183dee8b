package dev.runnel.runtime.state.storage;

import dev.runnel.runtime.checkpoint.CheckpointStorageAccess;
import dev.runnel.runtime.checkpoint.Checkpoints;
import dev.runnel.runtime.checkpoint.CompletedCheckpoint;
import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The checkpoint storage of one job on a local file system:
 *
 * <pre>
 * &lt;state.checkpoints.dir&gt;/&lt;job id&gt;/
 *     chk-7/               one folder per checkpoint: its exclusive state files (random UUID names)
 *         3f1c...          and, written last and atomically, _metadata
 *         _metadata
 *     shared/              state later checkpoints may refer to too (incremental RocksDB's SST files)
 *     taskowned/           state the tasks own and delete themselves
 * &lt;savepoint dir&gt;/savepoint-&lt;first 6 characters of the job id&gt;-&lt;12 random hex digits&gt;/
 *     ...                  every file of the savepoint, and _metadata
 * </pre>
 *
 * <p>Only {@link FileSystemCheckpointStorage#createCheckpointStorage} makes one, having created the job's
 * folders. Thread-safe: nothing in it changes after construction (but a test hook).
 */
public final class FsCheckpointStorageAccess implements CheckpointStorageAccess {

    static final String CHECKPOINT_DIR_PREFIX = "chk-";
    static final String SHARED_STATE_DIR = "shared";
    static final String TASK_OWNED_STATE_DIR = "taskowned";
    static final String SAVEPOINT_DIR_PREFIX = "savepoint-";

    private static final Pattern CHECKPOINT_DIR = Pattern.compile("chk-(\\d+)");

    private final String jobId;
    private final Path jobDirectory;
    private final Path sharedDirectory;
    private final Path taskOwnedDirectory;
    private final Path defaultSavepointDirectory;
    private final int writeBufferSize;
    private final int memoryThreshold;
    private volatile FsCheckpointStorageLocation.MetadataWriteHook metadataWriteHook;

    FsCheckpointStorageAccess(String jobId, Path jobDirectory, Path defaultSavepointDirectory, int writeBufferSize,
            int memoryThreshold) throws IOException {
        this.jobId = Objects.requireNonNull(jobId, "jobId");
        this.jobDirectory = jobDirectory;
        this.sharedDirectory = jobDirectory.resolve(SHARED_STATE_DIR);
        this.taskOwnedDirectory = jobDirectory.resolve(TASK_OWNED_STATE_DIR);
        this.defaultSavepointDirectory = defaultSavepointDirectory;
        this.writeBufferSize = writeBufferSize;
        this.memoryThreshold = memoryThreshold;
        createWritableDirectory(jobDirectory, "the checkpoint directory of job " + jobId);
        createWritableDirectory(sharedDirectory, "the shared state directory of job " + jobId);
        createWritableDirectory(taskOwnedDirectory, "the task-owned state directory of job " + jobId);
    }

    /** {@code <state.checkpoints.dir>/<job id>}. */
    public Path getJobDirectory() {
        return jobDirectory;
    }

    /** Where state shared between checkpoints goes. */
    public Path getSharedStateDirectory() {
        return sharedDirectory;
    }

    /** Where state the tasks own (and delete themselves) goes. */
    public Path getTaskOwnedStateDirectory() {
        return taskOwnedDirectory;
    }

    @Override
    public FsCheckpointStorageLocation initializeLocationForCheckpoint(long checkpointId) throws IOException {
        if (checkpointId < 0) {
            throw new IllegalArgumentException("checkpoint id must not be negative, was " + checkpointId);
        }
        Path folder = jobDirectory.resolve(CHECKPOINT_DIR_PREFIX + checkpointId);
        try {
            // Not createDirectories: a folder that exists belongs to an earlier run's checkpoint of the same id,
            // and writing into it would mix two checkpoints' files.
            Files.createDirectory(folder);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("Cannot start checkpoint " + checkpointId + ": its folder " + folder + " already"
                    + " exists (from an earlier run of job " + jobId + "?). Checkpoint ids must continue after"
                    + " the highest one on disk", e);
        } catch (IOException e) {
            throw cannotCreate(folder, "the folder of checkpoint " + checkpointId, e);
        }
        return new FsCheckpointStorageLocation(checkpointId, folder, sharedDirectory, writeBufferSize,
                memoryThreshold, metadataWriteHook);
    }

    @Override
    public FsCheckpointStorageLocation initializeLocationForSavepoint(long checkpointId, String targetDirectory)
            throws IOException {
        Path base;
        if (targetDirectory != null) {
            base = toLocalPath(targetDirectory);
        } else if (defaultSavepointDirectory != null) {
            base = defaultSavepointDirectory;
        } else {
            throw new IllegalArgumentException("No savepoint directory: pass a target directory or set"
                    + " state.savepoints.dir");
        }
        createWritableDirectory(base, "the savepoint directory");
        String prefix = SAVEPOINT_DIR_PREFIX + jobId.substring(0, Math.min(6, jobId.length())) + "-";
        for (int attempt = 0; ; attempt++) {
            Path folder = base.resolve(prefix + UUID.randomUUID().toString().replace("-", "").substring(0, 12));
            try {
                Files.createDirectory(folder);
                // Shared state of a savepoint stays in its folder, so the folder is the whole savepoint.
                return new FsCheckpointStorageLocation(checkpointId, folder, folder, writeBufferSize,
                        memoryThreshold, metadataWriteHook);
            } catch (FileAlreadyExistsException e) {
                if (attempt >= 10) {
                    throw new IOException("Cannot find a free savepoint folder name under " + base, e);
                }
            } catch (IOException e) {
                throw cannotCreate(folder, "a savepoint folder", e);
            }
        }
    }

    @Override
    public CompletedCheckpoint loadCheckpoint(String pointer) throws IOException {
        return Checkpoints.loadCheckpointMetadata(pointer);
    }

    @Override
    public List<String> findCompletedCheckpoints() throws IOException {
        Map<Long, Path> found = new TreeMap<>(Comparator.reverseOrder());
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(jobDirectory)) {
            for (Path entry : entries) {
                Matcher matcher = CHECKPOINT_DIR.matcher(entry.getFileName().toString());
                if (matcher.matches() && Files.isDirectory(entry)
                        && Files.isRegularFile(entry.resolve(Checkpoints.METADATA_FILE_NAME))) {
                    try {
                        found.put(Long.parseLong(matcher.group(1)), entry);
                    } catch (NumberFormatException ignored) {
                        // More digits than a long holds: not a folder Runnel made.
                    }
                }
            }
        } catch (IOException e) {
            throw new IOException("Cannot list the checkpoints of job " + jobId + " in " + jobDirectory + ": " + e, e);
        }
        List<String> pointers = new ArrayList<>(found.size());
        found.values().forEach(path -> pointers.add(path.toString()));
        return pointers;
    }

    /** Test seam: runs in every location created from now on, between writing and renaming the metadata. */
    void setMetadataWriteHook(FsCheckpointStorageLocation.MetadataWriteHook hook) {
        this.metadataWriteHook = hook;
    }

    static Path toLocalPath(String pathOrUri) {
        return new dev.runnel.core.fs.Path(pathOrUri).toLocalPath().toAbsolutePath().normalize();
    }

    static void createWritableDirectory(Path directory, String what) throws IOException {
        try {
            Files.createDirectories(directory);
        } catch (IOException e) {
            throw cannotCreate(directory, what, e);
        }
        // createDirectories succeeds on a folder that exists, writable or not; the first state file would fail.
        if (!Files.isWritable(directory)) {
            throw new IOException("Cannot write " + what + " " + directory + ": the folder is not writable by this"
                    + " process. Make it writable or point state.checkpoints.dir / state.savepoints.dir elsewhere");
        }
    }

    private static IOException cannotCreate(Path directory, String what, IOException cause) {
        String reason = cause instanceof FileAlreadyExistsException
                ? "a file that is not a folder is in the way (" + cause.getMessage() + ")"
                : cause instanceof java.nio.file.AccessDeniedException ? "permission denied on " + cause.getMessage()
                : cause.toString();
        return new IOException("Cannot create " + what + " " + directory + ": " + reason + ". Make the path writable"
                + " by this process or point state.checkpoints.dir / state.savepoints.dir elsewhere", cause);
    }

    @Override
    public String toString() {
        return "FsCheckpointStorageAccess{job " + jobId + " @ " + jobDirectory + '}';
    }
}
