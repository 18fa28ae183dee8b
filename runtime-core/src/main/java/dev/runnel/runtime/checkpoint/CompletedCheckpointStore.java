package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.SharedStateRegistry;
import java.io.IOException;
import java.util.List;

/**
 * The retained completed checkpoints of one job, oldest first, at most {@code state.checkpoints.num-retained}.
 * Adding a checkpoint registers its shared state, then drops (and deletes, with their exclusive files and
 * the shared files no retained checkpoint uses any more) the oldest beyond the limit. Savepoints are never
 * retained here nor deleted. Thread-safe.
 */
public interface CompletedCheckpointStore {

    /**
     * Adds a checkpoint whose metadata is written and whose shared state was registered with
     * {@link #getSharedStateRegistry()} before that ({@link CompletedCheckpoint#registerSharedStates}); returns
     * the checkpoints it subsumed (already deleted).
     */
    List<CompletedCheckpoint> addCheckpointAndSubsumeOldestOne(CompletedCheckpoint checkpoint) throws IOException;

    /** The newest retained checkpoint, or null. */
    CompletedCheckpoint getLatestCheckpoint();

    /** Every retained checkpoint, oldest first. */
    List<CompletedCheckpoint> getAllCheckpoints();

    /**
     * Removes a retained checkpoint that could not be restored (corrupt, files gone) so recovery falls back
     * to the one before; its files are left for inspection.
     */
    void removeUnrestorable(CompletedCheckpoint checkpoint);

    SharedStateRegistry getSharedStateRegistry();

    /**
     * The job ended: deletes every retained checkpoint if {@code discard} (externalized retention
     * DELETE_ON_CANCELLATION on cancel, or a finished job), or keeps them on disk.
     */
    void shutdown(boolean discard) throws IOException;
}
