package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.DefaultSharedStateRegistry;
import dev.runnel.runtime.state.SharedStateRegistry;
import dev.runnel.runtime.state.SharedStateRegistryKey;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.storage.StorageFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link CompletedCheckpointStore} of one job, in memory over checkpoints on a file system: keeps the
 * newest {@code state.checkpoints.num-retained} checkpoints (at least one) and deletes the rest.
 *
 * <p>{@link #addCheckpointAndSubsumeOldestOne}:
 * <ol>
 *   <li>registers the checkpoint's shared state with the registry under its id. This must already have
 *       happened once, before its {@code _metadata} was written ({@link CompletedCheckpoint} lists the
 *       order), so here it changes only what it must: nothing, or the last-used ids. If the registry holds
 *       a different handle for one of its shared files, the metadata names a file the registry would
 *       delete: the add is refused with an {@link IllegalStateException} and nothing is deleted;
 *   <li>retains it, and drops the oldest checkpoints beyond the limit: deletes their exclusive state and
 *       their {@code chk-N} folder, then lets the registry delete shared files last used before the oldest
 *       checkpoint still retained.
 * </ol>
 * Savepoints are not retained and never deleted: adding one does nothing.
 *
 * <p>After a restart, {@link #recover} loads the checkpoints found on disk and registers their shared
 * state again, so the files they share survive and the ones nobody uses any more go with the next subsume.
 *
 * <p>Deleting is best effort: a file that cannot be deleted is logged with its path and left over, and
 * the checkpoint leaves the store all the same (a completed checkpoint must not fail because an old one's
 * files are stuck). Thread-safe: the list is guarded by the store's lock, files are deleted outside it.
 */
public final class DefaultCompletedCheckpointStore implements CompletedCheckpointStore {

    private static final Logger LOG = LoggerFactory.getLogger(DefaultCompletedCheckpointStore.class);

    private final int maxRetained;
    private final SharedStateRegistry registry;
    private final Deque<CompletedCheckpoint> checkpoints = new ArrayDeque<>();
    private boolean shutDown;

    /** An empty store with a fresh registry. */
    public DefaultCompletedCheckpointStore(int maxRetainedCheckpoints) {
        this(maxRetainedCheckpoints, new DefaultSharedStateRegistry(), List.of());
    }

    /**
     * A store holding {@code recovered} (checkpoints loaded from disk, in any order), whose shared state is
     * registered with {@code registry} under each checkpoint's own id. More than the limit are kept until
     * the next add subsumes them (the limit may have been lowered between runs; deleting on construction
     * would delete before the job has restored anything).
     *
     * @param maxRetainedCheckpoints {@code state.checkpoints.num-retained}; at least 1
     */
    public DefaultCompletedCheckpointStore(int maxRetainedCheckpoints, SharedStateRegistry registry,
            Collection<CompletedCheckpoint> recovered) {
        if (maxRetainedCheckpoints < 1) {
            throw new IllegalArgumentException("state.checkpoints.num-retained must be at least 1, was "
                    + maxRetainedCheckpoints);
        }
        this.maxRetained = maxRetainedCheckpoints;
        this.registry = Objects.requireNonNull(registry, "registry");
        List<CompletedCheckpoint> sorted = new ArrayList<>(recovered);
        sorted.sort(Comparator.comparingLong(CompletedCheckpoint::getCheckpointID));
        for (CompletedCheckpoint checkpoint : sorted) {
            if (checkpoint.getProperties().savepoint()) {
                continue;
            }
            checkpoint.registerSharedStates(registry);
            checkpoints.addLast(checkpoint);
        }
    }

    /**
     * The store of a job restarting over {@code storage}: every checkpoint {@code findCompletedCheckpoints}
     * lists that loads is retained, with its shared state registered with a fresh registry. One that fails
     * to load is logged with the reason and left on disk for inspection.
     */
    public static DefaultCompletedCheckpointStore recover(CheckpointStorageAccess storage, int maxRetainedCheckpoints)
            throws IOException {
        List<CompletedCheckpoint> loaded = new ArrayList<>();
        for (String pointer : storage.findCompletedCheckpoints()) {
            try {
                loaded.add(storage.loadCheckpoint(pointer));
            } catch (IOException e) {
                LOG.warn("Skipping checkpoint {} on recovery: {}", pointer, e.getMessage());
            }
        }
        return new DefaultCompletedCheckpointStore(maxRetainedCheckpoints, new DefaultSharedStateRegistry(), loaded);
    }

    @Override
    public List<CompletedCheckpoint> addCheckpointAndSubsumeOldestOne(CompletedCheckpoint checkpoint) {
        Objects.requireNonNull(checkpoint, "checkpoint");
        if (checkpoint.getProperties().savepoint()) {
            return List.of();
        }
        List<CompletedCheckpoint> subsumed = new ArrayList<>();
        long lowestRetained;
        synchronized (this) {
            if (shutDown) {
                throw new IllegalStateException("The completed checkpoint store was shut down; checkpoint "
                        + checkpoint.getCheckpointID() + " cannot be added");
            }
            checkRegisteredBeforeMetadata(checkpoint);
            checkpoint.registerSharedStates(registry);
            checkpoints.addLast(checkpoint);
            while (checkpoints.size() > maxRetained) {
                subsumed.add(checkpoints.removeFirst());
            }
            lowestRetained = checkpoints.getFirst().getCheckpointID();
        }
        for (CompletedCheckpoint old : subsumed) {
            discard(old);
        }
        if (!subsumed.isEmpty()) {
            try {
                registry.unregisterUnusedState(lowestRetained);
            } catch (IOException e) {
                LOG.warn("Could not delete shared state no longer used by checkpoints from {} on", lowestRetained, e);
            }
        }
        return subsumed;
    }

    /** Refuses a checkpoint whose metadata names shared files other than the ones the registry keeps. */
    private void checkRegisteredBeforeMetadata(CompletedCheckpoint checkpoint) {
        ConflictProbe probe = new ConflictProbe(registry);
        checkpoint.registerSharedStates(probe);
        if (probe.conflict != null) {
            throw new IllegalStateException(String.format("Checkpoint %d refers to %s, but the shared state registry"
                    + " already keeps %s under %s: its shared state was not registered before its metadata was"
                    + " written, so the metadata names a copy the registry deletes. Call"
                    + " CompletedCheckpoint.registerSharedStates(store.getSharedStateRegistry()) before"
                    + " CheckpointStorageLocation.writeMetadata", checkpoint.getCheckpointID(), probe.conflict,
                    probe.registered, probe.key));
        }
    }

    /**
     * A dry run of registration: answers every handle with itself (so the checkpoint's handles stay as they
     * are) and notes the first one the real registry would have replaced.
     */
    private static final class ConflictProbe implements SharedStateRegistry {
        private final SharedStateRegistry real;
        String conflict;
        String registered;
        SharedStateRegistryKey key;

        ConflictProbe(SharedStateRegistry real) {
            this.real = real;
        }

        @Override
        public StreamStateHandle registerReference(SharedStateRegistryKey key, StreamStateHandle handle,
                long checkpointId) {
            StreamStateHandle kept = real.getRegisteredHandle(key);
            if (conflict == null && kept != null && !kept.equals(handle)) {
                this.conflict = handle.describe();
                this.registered = kept.describe();
                this.key = key;
            }
            return handle;
        }

        @Override
        public StreamStateHandle getRegisteredHandle(SharedStateRegistryKey key) {
            return real.getRegisteredHandle(key);
        }

        @Override
        public void unregisterUnusedState(long lowestRetainedCheckpointId) {}

        @Override
        public void close() {}
    }

    @Override
    public synchronized CompletedCheckpoint getLatestCheckpoint() {
        return checkpoints.peekLast();
    }

    @Override
    public synchronized List<CompletedCheckpoint> getAllCheckpoints() {
        return List.copyOf(checkpoints);
    }

    /** The number of checkpoints retained at most. */
    public int getMaxNumberOfRetainedCheckpoints() {
        return maxRetained;
    }

    @Override
    public synchronized void removeUnrestorable(CompletedCheckpoint checkpoint) {
        checkpoints.removeIf(c -> c.getCheckpointID() == checkpoint.getCheckpointID());
    }

    @Override
    public SharedStateRegistry getSharedStateRegistry() {
        return registry;
    }

    @Override
    public void shutdown(boolean discard) {
        List<CompletedCheckpoint> toDiscard;
        synchronized (this) {
            if (shutDown) {
                return;
            }
            shutDown = true;
            toDiscard = discard ? new ArrayList<>(checkpoints) : List.of();
            checkpoints.clear();
        }
        for (CompletedCheckpoint checkpoint : toDiscard) {
            discard(checkpoint);
        }
        if (discard) {
            try {
                registry.unregisterUnusedState(Long.MAX_VALUE);
            } catch (IOException e) {
                LOG.warn("Could not delete the shared checkpoint state of the job", e);
            }
        }
        registry.close();
    }

    /** Deletes a dropped checkpoint: its exclusive state, then its folder. */
    private static void discard(CompletedCheckpoint checkpoint) {
        try {
            checkpoint.discardExclusiveState();
        } catch (IOException e) {
            LOG.warn("Could not delete all state files of {}; they are left over", checkpoint, e);
        }
        Path folder;
        try {
            folder = Checkpoints.toLocalPath(checkpoint.getExternalPointer());
        } catch (IllegalArgumentException e) {
            LOG.warn("Not deleting the folder of {}: {}", checkpoint, e.getMessage());
            return;
        }
        // Only a folder that is a checkpoint's: a wrong pointer must not delete anything else.
        String name = folder.getFileName() == null ? "" : folder.getFileName().toString();
        if (!name.startsWith("chk-") || !Files.isDirectory(folder)) {
            LOG.warn("Not deleting {} for {}: it is not a chk-N folder", folder, checkpoint);
            return;
        }
        try {
            StorageFiles.deleteRecursively(folder);
        } catch (IOException e) {
            LOG.warn("Could not delete the folder {} of {}; it is left over", folder, checkpoint, e);
        }
    }

    @Override
    public synchronized String toString() {
        return "DefaultCompletedCheckpointStore{retains " + maxRetained + ", holds " + checkpoints + '}';
    }
}
