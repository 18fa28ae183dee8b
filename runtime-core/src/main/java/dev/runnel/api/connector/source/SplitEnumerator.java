package dev.runnel.api.connector.source;

import java.util.List;

/**
 * Discovers splits and assigns them to readers. Runs on the coordinator's single thread (not on a
 * task thread); methods are never called concurrently.
 */
public interface SplitEnumerator<SplitT extends SourceSplit, CheckpointT> extends AutoCloseable {

    void start();

    /** Reader {@code subtaskId} asked for a split; {@code requesterHostname} may be null. */
    void handleSplitRequest(int subtaskId, String requesterHostname);

    /** Splits a failed reader had not finished come back for reassignment. */
    void addSplitsBack(List<SplitT> splits, int subtaskId);

    /** Reader {@code subtaskId} registered. */
    void addReader(int subtaskId);

    CheckpointT snapshotState(long checkpointId) throws Exception;

    @Override
    void close() throws Exception;
}
