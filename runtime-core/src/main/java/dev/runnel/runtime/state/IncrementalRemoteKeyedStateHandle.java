package dev.runnel.runtime.state;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.UUID;

/**
 * An incremental snapshot of a RocksDB store: the SST files of its database at one checkpoint, most of them
 * shared with earlier checkpoints, plus the files only this checkpoint has (MANIFEST, CURRENT, OPTIONS) and
 * the store's own description of its states. Restores download the files and open the database from them.
 *
 * <p>The shared files' handles are replaced once, by {@link #registerSharedStates}, with the ones the
 * registry keeps, before the checkpoint's metadata is written; the handle is immutable after that.
 */
public final class IncrementalRemoteKeyedStateHandle implements KeyedStateHandle {

    private static final long serialVersionUID = 1L;

    /** One file of the snapshot: the name it has in the database folder and where its bytes are. */
    public record HandleAndLocalPath(String localPath, StreamStateHandle handle) implements java.io.Serializable {
        public HandleAndLocalPath {
            Objects.requireNonNull(localPath, "localPath");
            Objects.requireNonNull(handle, "handle");
        }
    }

    private final UUID backendIdentifier;
    private final KeyGroupRange keyGroupRange;
    private final long checkpointId;
    // Replaced as a whole (never changed in place) so that readers on other threads see either the
    // uploaded handles or the registry's, never a list half way through registration.
    private volatile List<HandleAndLocalPath> sharedState;
    private final List<HandleAndLocalPath> privateState;
    private final StreamStateHandle metaStateHandle;

    public IncrementalRemoteKeyedStateHandle(UUID backendIdentifier, KeyGroupRange keyGroupRange, long checkpointId,
            List<HandleAndLocalPath> sharedState, List<HandleAndLocalPath> privateState,
            StreamStateHandle metaStateHandle) {
        this.backendIdentifier = Objects.requireNonNull(backendIdentifier, "backendIdentifier");
        this.keyGroupRange = Objects.requireNonNull(keyGroupRange, "keyGroupRange");
        this.checkpointId = checkpointId;
        this.sharedState = List.copyOf(sharedState);
        this.privateState = List.copyOf(privateState);
        this.metaStateHandle = Objects.requireNonNull(metaStateHandle, "metaStateHandle");
    }

    public UUID getBackendIdentifier() {
        return backendIdentifier;
    }

    public long getCheckpointId() {
        return checkpointId;
    }

    /** The SST files, shared with other checkpoints of the same store instance. */
    public List<HandleAndLocalPath> getSharedState() {
        return sharedState;
    }

    /** The files only this checkpoint has. */
    public List<HandleAndLocalPath> getPrivateState() {
        return privateState;
    }

    /** The store's description of its states (names, serializers), written by the store. */
    public StreamStateHandle getMetaStateHandle() {
        return metaStateHandle;
    }

    /** The registry key of shared file {@code localPath}. */
    public SharedStateRegistryKey registryKey(String localPath) {
        return SharedStateRegistryKey.forFile(backendIdentifier.toString(), localPath);
    }

    /**
     * Registers every shared file with {@code registry} for checkpoint {@code checkpointId} (which differs
     * from this handle's own id when a later checkpoint restores from it) and refers from now on to the
     * handles the registry keeps.
     */
    @Override
    public synchronized void registerSharedStates(SharedStateRegistry registry, long checkpointId) {
        List<HandleAndLocalPath> registered = new ArrayList<>(sharedState.size());
        for (HandleAndLocalPath file : sharedState) {
            StreamStateHandle kept = registry.registerReference(registryKey(file.localPath()), file.handle(),
                    checkpointId);
            registered.add(kept == file.handle() ? file : new HandleAndLocalPath(file.localPath(), kept));
        }
        sharedState = List.copyOf(registered);
    }

    @Override
    public KeyGroupRange getKeyGroupRange() {
        return keyGroupRange;
    }

    @Override
    public long getStateSize() {
        long size = metaStateHandle.getStateSize();
        for (HandleAndLocalPath file : sharedState) {
            size += file.handle().getStateSize();
        }
        for (HandleAndLocalPath file : privateState) {
            size += file.handle().getStateSize();
        }
        return size;
    }

    @Override
    public String describe() {
        return "incremental RocksDB snapshot of checkpoint " + checkpointId + " (store " + backendIdentifier + ", "
                + sharedState.size() + " shared files, meta " + metaStateHandle.describe() + ")";
    }

    /** Deletes the private files and the meta data; shared files are the registry's. */
    @Override
    public void discardState() throws IOException {
        IOException first = null;
        for (StreamStateHandle handle : privateHandles()) {
            try {
                handle.discardState();
            } catch (IOException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private List<StreamStateHandle> privateHandles() {
        List<StreamStateHandle> handles = new ArrayList<>();
        handles.add(metaStateHandle);
        privateState.forEach(f -> handles.add(f.handle()));
        return handles;
    }

    @Override
    public String toString() {
        return "IncrementalRemoteKeyedStateHandle{" + describe() + ", " + keyGroupRange + '}';
    }
}
