package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.StreamStateHandle;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Which SST files of one backend's incremental checkpoints are uploaded, and which of them a new
 * checkpoint may refer to instead of uploading them again.
 *
 * <p>Only the files of the <em>latest completed</em> checkpoint are reused ("confirmed"), never those of
 * a checkpoint still pending or aborted: a pending one may yet be aborted, and an aborted one's uploads
 * are discarded (or never registered), so a reference to them would point at nothing. Nor are files of
 * older completed checkpoints kept: once a later checkpoint completes, the job drops the older ones and
 * the shared state registry deletes the files only they used.
 *
 * <pre>
 *   sync phase of n (task thread)      begin(n)        -> confirmed files, captured now, for n to reuse
 *   upload of n done (any thread)      uploaded(n, f)  -> kept as pending n, unless n was aborted meanwhile
 *   notifyCheckpointComplete(n)        completed(n)    -> confirmed := pending n's files (all of them:
 *                                                         reused and new), pending &lt;= n dropped
 *   notifyCheckpointAborted(n)         aborted(n)      -> pending n dropped; a late uploaded(n) is ignored
 * </pre>
 *
 * Races: a checkpoint whose sync phase runs while its predecessor is still pending captures the older
 * confirmed set. That stays safe after the predecessor completes and the older checkpoint is dropped: a
 * file in both the older checkpoint and the new one existed in the database throughout (RocksDB never
 * brings back a deleted file number), so the predecessor holds it too and registered it under the same
 * registry key ({@link dev.runnel.runtime.state.SharedStateRegistryKey}: backend id and file name), which
 * keeps it alive. A completion announced before the checkpoint's upload finished, or of a checkpoint
 * this backend did not take incrementally and that is no savepoint, clears the confirmed set, so the
 * next checkpoint uploads everything, which is always safe. Completions of savepoints change nothing
 * (savepoints subsume no checkpoint), nor do late notifications of older checkpoints.
 *
 * <p>Thread-safe: the task thread begins and notifies, the snapshot's writing thread reports uploads.
 */
final class RocksDBUploadTracker {

    /** An SST file as uploaded: where its bytes are, and their size and CRC-32C for the meta data. */
    record UploadedFile(StreamStateHandle handle, long size, int crc) {}

    /** Guarded by this. Checkpoints begun and neither completed nor aborted; null value: upload not done. */
    private final TreeMap<Long, Map<String, UploadedFile>> pending = new TreeMap<>();
    /** Guarded by this. Savepoints begun (their completion subsumes nothing). */
    private final Set<Long> savepoints = new HashSet<>();
    /** Guarded by this. The SST files of checkpoint {@link #confirmedId}; immutable. */
    private Map<String, UploadedFile> confirmed = Map.of();
    private long confirmedId = -1;

    /** The sync phase of incremental checkpoint {@code checkpointId}: returns the files it may reuse. */
    synchronized Map<String, UploadedFile> begin(long checkpointId) {
        pending.put(checkpointId, null);
        return confirmed;
    }

    /** The sync phase of a savepoint (which reuses nothing and is reused by nothing). */
    synchronized void beginSavepoint(long checkpointId) {
        savepoints.add(checkpointId);
    }

    /** Checkpoint {@code checkpointId}'s SST files (reused and new) are uploaded. */
    synchronized void uploaded(long checkpointId, Map<String, UploadedFile> files) {
        if (pending.containsKey(checkpointId)) {
            pending.put(checkpointId, Map.copyOf(files));
        }
    }

    synchronized void completed(long checkpointId) {
        if (savepoints.remove(checkpointId) || checkpointId <= confirmedId) {
            return;
        }
        Map<String, UploadedFile> files = pending.get(checkpointId);
        confirmed = files != null ? files : Map.of();
        confirmedId = checkpointId;
        pending.headMap(checkpointId, true).clear();
        savepoints.removeIf(id -> id < checkpointId);
    }

    synchronized void aborted(long checkpointId) {
        pending.remove(checkpointId);
        savepoints.remove(checkpointId);
    }

    /** The confirmed files; for tests. */
    synchronized Map<String, UploadedFile> confirmed() {
        return new HashMap<>(confirmed);
    }

    /** The id of the checkpoint whose files are confirmed, or -1; for tests. */
    synchronized long confirmedId() {
        return confirmedId;
    }
}
