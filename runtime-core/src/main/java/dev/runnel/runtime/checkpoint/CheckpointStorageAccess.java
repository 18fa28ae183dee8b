package dev.runnel.runtime.checkpoint;

import java.io.IOException;
import java.util.List;

/**
 * The checkpoint storage of one job: creates the location of each checkpoint and savepoint, and finds and
 * reads completed ones for recovery. On a filesystem: {@code <state.checkpoints.dir>/<job id>/chk-N/} per
 * checkpoint with {@code _metadata} written last, {@code shared/} for state shared between checkpoints,
 * {@code taskowned/}. Thread-safe.
 */
public interface CheckpointStorageAccess {

    /** Creates the folder of checkpoint {@code checkpointId}. */
    CheckpointStorageLocation initializeLocationForCheckpoint(long checkpointId) throws IOException;

    /** Creates a savepoint folder under {@code targetDirectory} (or the configured savepoint directory if null). */
    CheckpointStorageLocation initializeLocationForSavepoint(long checkpointId, String targetDirectory)
            throws IOException;

    /**
     * Reads the metadata of the checkpoint or savepoint at {@code pointer} (its folder or its {@code _metadata}
     * file) and checks that every file it refers to exists.
     *
     * @throws IOException naming the file and what is wrong with it (missing, truncated, wrong magic
     *     number, unknown version, checksum mismatch, unknown handle type, a state file gone or shorter than
     *     recorded)
     */
    CompletedCheckpoint loadCheckpoint(String pointer) throws IOException;

    /** The folders of completed checkpoints of this job found on disk (those with a {@code _metadata}), newest first. */
    List<String> findCompletedCheckpoints() throws IOException;
}
