package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.backend.AbstractKeyedStateBackend;
import dev.runnel.runtime.state.backend.AbstractKeyedStateSnapshot;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.KeyExtractorFunction;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.state.snapshot.format.SerializerIdentity;
import dev.runnel.runtime.state.snapshot.format.StateKind;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import dev.runnel.runtime.state.ttl.TtlSnapshotFilter;
import dev.runnel.runtime.state.ttl.TtlStateFactory;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.stream.Stream;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;
import org.rocksdb.Snapshot;

/**
 * The keyed state of one operator subtask in an embedded RocksDB instance.
 *
 * <pre>
 *   &lt;localdir&gt;/rocksdb-&lt;operator&gt;-&lt;subtask&gt;-&lt;random&gt;/     one RocksDB database
 *     column family per state       key = [key group: 2 bytes][key][namespace]( [user key] )
 *     column family per timer queue key = [key group: 2 bytes][element bytes], value empty
 * </pre>
 *
 * Every state of the operator shares one {@link RocksDBKeyBuilder}: the current key is serialized
 * once per {@link #setCurrentKey} and each access appends only its namespace. Values are read into
 * and written from reused buffers; writes skip the write-ahead log. Value, reducing and aggregating
 * state go through a bounded write-back {@link RocksDBValueCache} (flushed before key listings, copied
 * by snapshots), so hot keys are read and updated without JNI calls. Timer queues are
 * {@link RocksDBTimerQueues}; snapshots and restores are {@link RocksDBSnapshotWriter} and
 * {@link RocksDBRestoreOperation}; TTL comes from the shared decorators.
 *
 * <p>Snapshots: the synchronous phase writes the pending timer writes into RocksDB, copies the value
 * cache's dirty entries and takes a native RocksDB snapshot; a {@link RocksDBKeyedStateSnapshot} then
 * writes the format from both on any thread while the task goes on writing. When memtables update in
 * place ({@link dev.runnel.contrib.streaming.state.RocksDBOptions#INPLACE_UPDATE_SUPPORT}), RocksDB
 * takes no native snapshot, and the synchronous phase takes a checkpoint instead (flush plus hard
 * links), which a {@link RocksDBCheckpointSnapshot} writes from in the same format.
 *
 * <p>File-based snapshots ({@link #snapshotForCheckpoint}): with {@link RocksDBSettings#INCREMENTAL_CHECKPOINTS}
 * a checkpoint is RocksDB's own files instead, of which only the SST files no completed checkpoint of this
 * instance uploaded are uploaded again ({@link RocksDBIncrementalSnapshot}, {@link RocksDBUploadTracker});
 * a NATIVE savepoint is the same files, all its own; the snapshot of an in-place rescale
 * ({@link CheckpointOptions#isLocalHandover()}) is the same files left on local disk, next to the working
 * directory, and handed over by path ({@link RocksDBHandoverMeta}). Restores from them open the database on the
 * downloaded files ({@link RocksDBIncrementalRestoreOperation}); canonical snapshots keep the paths above.
 *
 * <p>Contract: task thread only; the snapshots it hands out are written on any thread. The backend
 * owns the RocksDB instance and every native object of it (options, column families, iterators and
 * snapshots it hands out); {@link #close()} releases pending snapshots (waiting for a write in
 * progress to stop), frees them all, deletes the working directory and may be called again
 * harmlessly. RocksDB failures surface as
 * {@link IOException}s that name the state and operation and keep RocksDB's status message.
 *
 * @param <K> the key type
 */
public final class RocksDBKeyedStateBackend<K> extends AbstractKeyedStateBackend<K> {

    /** Larger serialized values bypass the value cache, which bounds its memory. */
    static final int MAX_CACHED_VALUE_BYTES = 256;

    private final RocksDBSettings settings;
    private final RocksDBInstance instance;
    private final RocksDBKeyBuilder<K> keyBuilder;
    /** Every column family, in registration order (which is the order snapshots list them in). */
    private final Map<String, RocksDBRegisteredState> states = new LinkedHashMap<>();
    /** Write-back cache of single-value states; created with the first such state, null when off. */
    private RocksDBValueCache valueCache;
    private RocksDBWriteBatcher timerWrites;
    /** Checkpoints taken for snapshots so far; numbers their folders. */
    private long checkpoints;
    /** Iterators handed out by {@link #getKeys} that are still open. */
    private final Set<AutoCloseable> openIterators = new HashSet<>();
    /** Identifies this backend instance in its file-based snapshots (and their shared files' registry keys). */
    private final UUID backendId = UUID.randomUUID();
    /** Which uploaded SST files incremental checkpoints may reuse. */
    private final RocksDBUploadTracker uploads = new RocksDBUploadTracker();
    /**
     * Set by {@link #snapshotForCheckpoint} around its {@link #snapshotSync} call when the snapshot is to be
     * file-based: going through snapshotSync keeps its range check and pending-snapshot tracking (which
     * lets close release it) for both kinds. Task thread only.
     */
    private FileSnapshotRequest fileSnapshotRequest;

    private record FileSnapshotRequest(long checkpointId, RocksDBIncrementalSnapshot.Sharing sharing) {}

    private RocksDBKeyedStateBackend(KeyedStateBackendParameters<K> parameters, RocksDBSettings settings,
            RocksDBInstance instance, Map<String, RocksDBRegisteredState> restoredStates) {
        super(parameters);
        this.settings = settings;
        this.instance = instance;
        this.keyBuilder = new RocksDBKeyBuilder<>(keySerializer);
        this.states.putAll(restoredStates);
    }

    /**
     * Opens a RocksDB instance in a new working directory for the subtask {@code parameters}
     * describe, and restores the parameters' snapshots into it. On any failure everything created is
     * freed again.
     *
     * @throws IOException when the working directory cannot be created (naming it and the reason),
     *     RocksDB cannot open, or a snapshot cannot be restored
     */
    public static <K> RocksDBKeyedStateBackend<K> create(KeyedStateBackendParameters<K> parameters,
            RocksDBSettings settings) throws IOException {
        String operatorName = parameters.operatorName() != null ? parameters.operatorName()
                : parameters.operatorIdentifier();
        RocksDBIncrementalRestoreOperation fileRestore = RocksDBIncrementalRestoreOperation.of(operatorName,
                parameters.keyGroupRange(), SerializerIdentity.of(parameters.keySerializer()),
                parameters.restoreState());
        RocksDBWorkingDirectory directory = RocksDBWorkingDirectory.create(settings.localDirectory(),
                parameters.localDirectories(), parameters.operatorIdentifier(), parameters.subtaskIndex());
        if (fileRestore != null) {
            // The database is opened on the snapshot's files: the restore runs before the backend exists.
            Map<String, RocksDBRegisteredState> restored = new LinkedHashMap<>();
            RocksDBInstance instance;
            try {
                instance = fileRestore.restore(directory, settings, restored);
            } catch (IOException | RuntimeException e) {
                try {
                    directory.delete();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
                throw e;
            }
            return new RocksDBKeyedStateBackend<>(parameters, settings, instance, restored);
        }
        RocksDBInstance instance = RocksDBInstance.open(directory, settings);
        RocksDBKeyedStateBackend<K> backend = new RocksDBKeyedStateBackend<>(parameters, settings, instance, Map.of());
        try {
            backend.restore(parameters);
        } catch (IOException | RuntimeException e) {
            try {
                backend.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        return backend;
    }

    private void restore(KeyedStateBackendParameters<K> parameters) throws IOException {
        if (!parameters.restoreState().isEmpty()) {
            new RocksDBRestoreOperation(instance, keyGroupRange, SerializerIdentity.of(keySerializer), states)
                    .restore(parameters.restoreState());
        }
    }

    // ------------------------------------------------------------------ current key

    @Override
    public void setCurrentKey(K newKey) {
        if (newKey == null) {
            throw new NullPointerException("The current key of operator '" + operatorName + "' must not be null");
        }
        int keyGroup = KeyGroupRangeAssignment.assignToKeyGroup(newKey, numberOfKeyGroups);
        if (!keyGroupRange.contains(keyGroup)) {
            throw keyNotInRange(newKey, keyGroup);
        }
        keyBuilder.setCurrentKey(newKey, keyGroup);
    }

    @Override
    public void setCurrentKeyAndKeyGroup(K newKey, int keyGroup) {
        if (!keyGroupRange.contains(keyGroup)) {
            throw keyNotInRange(newKey, keyGroup);
        }
        keyBuilder.setCurrentKey(newKey, keyGroup);
    }

    private IllegalArgumentException keyNotInRange(K key, int keyGroup) {
        return new IllegalArgumentException(String.format(
                "Key %s belongs to key group %s, which is not in %s of operator '%s'. The input was not "
                        + "partitioned by this key: use keyBy() with the same key selector before this operator.",
                key, keyGroup, keyGroupRange, operatorName));
    }

    @Override
    public K getCurrentKey() {
        return keyBuilder.currentKey();
    }

    @Override
    public int getCurrentKeyGroupIndex() {
        return keyBuilder.currentKeyGroup();
    }

    // ------------------------------------------------------------------ states

    /**
     * Creates the RocksDB state for {@code descriptor} (TTL-wrapped already if it has a TTL) in its
     * column family, which a restore may have created and filled. Used through {@link TtlStateFactory}.
     */
    @Override
    @SuppressWarnings("unchecked")
    protected <N, SV, S extends State> S createRawState(TypeSerializer<N> namespaceSerializer,
            StateDescriptor<S, SV> descriptor) throws IOException {
        String name = descriptor.getName();
        StateMetaInfo metaInfo = StateMetaInfo.forKeyedState(keySerializer, namespaceSerializer, descriptor);
        RocksDBRegisteredState registered = states.get(name);
        if (registered == null) {
            registered = new RocksDBRegisteredState(instance.createColumnFamily(name), metaInfo, null);
            states.put(name, registered);
        } else {
            metaInfo.checkCanRestore(registered.metaInfo, registered.restoredFrom);
            registered.metaInfo = metaInfo;
        }
        registered.ttlFilter = descriptor.getTtlConfig().isEnabled()
                ? new TtlSnapshotFilter(descriptor.getTtlConfig(), ttlTimeProvider)
                : null;
        AbstractRocksDBState<?, ?, ?> raw = (AbstractRocksDBState<?, ?, ?>) createState(registered, namespaceSerializer, descriptor);
        registered.rawState = raw;
        return (S) raw;
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private <N, T> Object createState(RocksDBRegisteredState registered, TypeSerializer<N> namespaceSerializer,
            StateDescriptor<?, T> descriptor) {
        String name = registered.name();
        return switch (registered.kind()) {
            case VALUE -> new RocksDBValueState<>(this, name, registered.columnFamily, namespaceSerializer,
                    descriptor.getSerializer());
            case LIST -> {
                ListStateDescriptor<?> list = (ListStateDescriptor<?>) descriptor;
                yield new RocksDBListState(this, name, registered.columnFamily, namespaceSerializer,
                        list.getSerializer(), list.getElementSerializer());
            }
            case REDUCING -> {
                ReducingStateDescriptor<T> reducing = (ReducingStateDescriptor<T>) descriptor;
                yield new RocksDBReducingState<>(this, name, registered.columnFamily, namespaceSerializer,
                        reducing.getSerializer(), reducing.getReduceFunction());
            }
            case AGGREGATING -> {
                AggregatingStateDescriptor aggregating = (AggregatingStateDescriptor) descriptor;
                yield new RocksDBAggregatingState(this, name, registered.columnFamily, namespaceSerializer,
                        aggregating.getSerializer(), aggregating.getAggregateFunction());
            }
            case MAP -> {
                MapStateDescriptor map = (MapStateDescriptor) descriptor;
                yield new RocksDBMapState(this, name, registered.columnFamily, namespaceSerializer,
                        map.getSerializer(), map.getKeySerializer(), map.getValueSerializer());
            }
            case PRIORITY_QUEUE -> throw new IllegalStateException("a timer queue is not a keyed state");
        };
    }

    @Override
    public <N> Stream<K> getKeys(String stateName, N namespace) {
        checkOpen();
        RocksDBRegisteredState registered = states.get(stateName);
        if (registered == null || registered.kind() == StateKind.PRIORITY_QUEUE) {
            return Stream.empty();
        }
        AbstractRocksDBState<?, ?, ?> state = registered.rawState;
        if (state == null) {
            throw new IllegalStateException(String.format(
                    "State '%s' of operator '%s' was restored but not registered yet: get it with "
                            + "getOrCreateKeyedState(...) before listing its keys.", stateName, operatorName));
        }
        if (valueCache != null && state.cacheOwner() != null) {
            try {
                valueCache.flush(state.cacheOwner());
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        byte[] namespaceBytes = serializeNamespace(state, namespace);
        RocksIterator iterator = instance.db().newIterator(registered.columnFamily, instance.readOptions());
        return new RocksDBKeysIterator<>(stateName, iterator, keySerializer, namespaceBytes,
                registered.kind() == StateKind.MAP, openIterators).stream();
    }

    @SuppressWarnings("unchecked")
    private static <N> byte[] serializeNamespace(AbstractRocksDBState<?, ?, ?> state, N namespace) {
        DataOutputSerializer out = new DataOutputSerializer(32);
        try {
            ((TypeSerializer<N>) state.getNamespaceSerializer()).serialize(namespace, out);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException("cannot serialize namespace " + namespace, e);
        }
        return out.getCopyOfBuffer();
    }

    // ------------------------------------------------------------------ timers

    /**
     * A timer queue in its own column family: the shared key-group partitioning over one
     * {@link RocksDBCachingPriorityQueueSet} per key group. Asking again for the same name returns the
     * same queue.
     */
    @Override
    protected <T extends HeapPriorityQueueElement> KeyGroupedInternalPriorityQueue<T> createQueue(String stateName,
            TypeSerializer<T> byteOrderedElementSerializer, PriorityComparator<T> comparator,
            KeyExtractorFunction<T> keyExtractor) {
        StateMetaInfo metaInfo = StateMetaInfo.forPriorityQueue(stateName, keySerializer, byteOrderedElementSerializer);
        RocksDBRegisteredState registered = states.get(stateName);
        boolean restored = registered != null;
        if (registered == null) {
            try {
                registered = new RocksDBRegisteredState(instance.createColumnFamily(stateName), metaInfo, null);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            states.put(stateName, registered);
        } else {
            metaInfo.checkCanRestore(registered.metaInfo, registered.restoredFrom);
            registered.metaInfo = metaInfo;
        }
        KeyGroupedInternalPriorityQueue<T> queue = RocksDBTimerQueues.create(instance, registered.columnFamily,
                stateName, byteOrderedElementSerializer, comparator, keyExtractor, keyGroupRange, numberOfKeyGroups,
                settings.timerCacheSize(), restored, timerWrites());
        return queue;
    }

    // ------------------------------------------------------------------ snapshot

    /**
     * Writes the pending timer writes into RocksDB (at most one batch), copies the value cache's
     * dirty entries (bounded by the cache's size) and takes a native RocksDB snapshot, or, when
     * memtables update in place (RocksDB then refuses native snapshots), a checkpoint: every
     * memtable flushed and the files hard-linked into a folder of the working directory, which costs
     * the flush. Serializes nothing. The cache's entries are copied rather than written into RocksDB
     * because writing a full cache measured 100 to 550 ms (see {@link RocksDBDirtyValues}).
     */
    @Override
    protected AbstractKeyedStateSnapshot takeSnapshot(KeyGroupRange range) throws IOException {
        flushTimerWrites();
        if (fileSnapshotRequest != null) {
            return takeFileSnapshot(range, fileSnapshotRequest);
        }
        List<RocksDBSnapshotWriter.SnapshotState> snapshotStates = new ArrayList<>(states.size());
        for (RocksDBRegisteredState state : states.values()) {
            snapshotStates.add(RocksDBSnapshotWriter.SnapshotState.of(state));
        }
        snapshotStates = List.copyOf(snapshotStates);
        RocksDBDirtyValues dirtyValues = valueCache == null ? RocksDBDirtyValues.NONE : valueCache.copyDirty();
        String description = "snapshot of " + range + " of operator '" + operatorName + "'";
        long ttlNow = ttlTimeProvider.currentTimestamp();
        if (instance.inplaceUpdates()) {
            Path checkpoint = instance.directory().path().resolve("snapshot-checkpoint-" + (++checkpoints));
            instance.createCheckpoint(checkpoint);
            return new RocksDBCheckpointSnapshot(range, description, checkpoint, instance.columnFamilyOptions(),
                    dirtyValues, snapshotStates, RocksDBCheckpointSnapshot.namesOf(snapshotStates), ttlNow);
        }
        RocksDB db = instance.db();
        Snapshot snapshot = db.getSnapshot();
        if (snapshot == null) {
            throw new IllegalStateException("RocksDB refused a snapshot of operator '" + operatorName
                    + "' although its column families do not allow in-place updates");
        }
        return new RocksDBKeyedStateSnapshot(range, description, db, snapshot, dirtyValues, snapshotStates, ttlNow);
    }

    private void flushTimerWrites() throws IOException {
        if (timerWrites != null) {
            try {
                timerWrites.flush();
            } catch (RocksDBException e) {
                throw RocksDBErrors.wrap("write the pending timer changes (before a snapshot) of operator", operatorName, e);
            }
        }
    }

    /**
     * Incrementally (when {@link RocksDBSettings#INCREMENTAL_CHECKPOINTS} is on and {@code options} allow it)
     * or as a NATIVE savepoint, the snapshot is RocksDB's own files: see {@link RocksDBIncrementalSnapshot}.
     * Otherwise the canonical snapshot of the whole range, as {@link #snapshotSync}.
     */
    @Override
    public KeyedStateSnapshot snapshotForCheckpoint(long checkpointId, CheckpointOptions options) throws IOException {
        checkOpen();
        RocksDBIncrementalSnapshot.Sharing sharing;
        if (options.isSavepoint()) {
            // Noted for every savepoint, so that its completion is not mistaken for one that subsumes checkpoints.
            uploads.beginSavepoint(checkpointId);
            if (options.isLocalHandover()) {
                sharing = RocksDBIncrementalSnapshot.Sharing.LOCAL_HANDOVER;
            } else {
                sharing = options.getSavepointFormat() == SavepointFormatType.NATIVE
                        ? RocksDBIncrementalSnapshot.Sharing.SELF_CONTAINED : null;
            }
        } else {
            sharing = settings.incrementalCheckpoints() && options.mayBeIncremental()
                    ? RocksDBIncrementalSnapshot.Sharing.INCREMENTAL : null;
        }
        if (sharing == null) {
            return snapshotSync(keyGroupRange);
        }
        fileSnapshotRequest = new FileSnapshotRequest(checkpointId, sharing);
        try {
            return snapshotSync(keyGroupRange);
        } finally {
            fileSnapshotRequest = null;
        }
    }

    /**
     * The synchronous phase of a file-based snapshot: the value cache's dirty entries are written into
     * RocksDB (the files must hold them; the cache's size bounds the write), then a RocksDB checkpoint
     * flushes the memtables and hard-links the files into a folder of the working directory. A rescale
     * handover copies the dirty entries instead (they travel beside the files, {@link RocksDBHandoverMeta};
     * writing a full cache costs 100 to 550 ms, see {@link RocksDBDirtyValues}) and puts the checkpoint next
     * to the working directory ({@link RocksDBWorkingDirectory#handoverPath}).
     */
    private AbstractKeyedStateSnapshot takeFileSnapshot(KeyGroupRange range, FileSnapshotRequest request)
            throws IOException {
        boolean handover = request.sharing() == RocksDBIncrementalSnapshot.Sharing.LOCAL_HANDOVER;
        RocksDBDirtyValues dirtyValues = RocksDBDirtyValues.NONE;
        if (valueCache != null && handover) {
            dirtyValues = valueCache.copyDirty();
        } else if (valueCache != null) {
            valueCache.flushAll();
        }
        List<RocksDBSnapshotWriter.SnapshotState> snapshotStates = new ArrayList<>(states.size());
        for (RocksDBRegisteredState state : states.values()) {
            snapshotStates.add(RocksDBSnapshotWriter.SnapshotState.of(state));
        }
        Path folder = handover ? instance.directory().handoverPath(request.checkpointId())
                : instance.directory().path().resolve("file-checkpoint-" + request.checkpointId() + "-" + (++checkpoints));
        instance.createCheckpoint(folder);
        boolean incremental = request.sharing() == RocksDBIncrementalSnapshot.Sharing.INCREMENTAL;
        Map<String, RocksDBUploadTracker.UploadedFile> reusable =
                incremental ? uploads.begin(request.checkpointId()) : Map.of();
        String kind = switch (request.sharing()) {
            case INCREMENTAL -> "incremental checkpoint ";
            case SELF_CONTAINED -> "native savepoint ";
            case LOCAL_HANDOVER -> "rescale handover ";
        };
        String description = kind + request.checkpointId() + " of " + range + " of operator '" + operatorName + "'";
        return new RocksDBIncrementalSnapshot(range, description, backendId, request.checkpointId(),
                request.sharing(), folder, instance.columnFamilyOptions(), List.copyOf(snapshotStates), dirtyValues,
                ttlTimeProvider.currentTimestamp(), uploads, reusable);
    }

    /** Later incremental checkpoints may refer to the SST files checkpoint {@code checkpointId} uploaded. */
    @Override
    public void notifyCheckpointComplete(long checkpointId) {
        uploads.completed(checkpointId);
    }

    /** Checkpoint {@code checkpointId}'s uploads are never reused. */
    @Override
    public void notifyCheckpointAborted(long checkpointId) {
        uploads.aborted(checkpointId);
    }

    /** The id of this backend instance in its file-based snapshots. */
    public UUID backendIdentifier() {
        return backendId;
    }

    RocksDBUploadTracker uploads() {
        return uploads;
    }

    // ------------------------------------------------------------------ lifecycle

    /** The batch all timer queues write through (created with the first queue). */
    private RocksDBWriteBatcher timerWrites() {
        if (timerWrites == null) {
            timerWrites = new RocksDBWriteBatcher(instance.db(), instance.writeOptions(),
                    RocksDBWriteBatcher.DEFAULT_MAX_ENTRIES);
        }
        return timerWrites;
    }

    /** The value cache (created on first use), or null when it is configured off. */
    RocksDBValueCache valueCache() {
        if (valueCache == null && settings.valueCacheSize() > 0) {
            valueCache = new RocksDBValueCache(instance.db(), instance.writeOptions(), settings.valueCacheSize(),
                    MAX_CACHED_VALUE_BYTES);
        }
        return valueCache;
    }

    RocksDBKeyBuilder<K> keyBuilder() {
        return keyBuilder;
    }

    RocksDBInstance instance() {
        return instance;
    }

    RocksDBSettings settings() {
        return settings;
    }

    TtlTimeProvider ttlTimeProvider() {
        return ttlTimeProvider;
    }

    String operatorName() {
        return operatorName;
    }

    /** The working directory; for tests and diagnostics. */
    public java.nio.file.Path workingDirectory() {
        return instance.directory().path();
    }

    /**
     * Closes iterators still open, then the RocksDB instance with all its native objects, and
     * deletes the working directory. A second call does nothing.
     */
    @Override
    public void close() throws IOException {
        if (!markClosed()) {
            return;
        }
        for (AutoCloseable iterator : new ArrayList<>(openIterators)) {
            try {
                iterator.close();
            } catch (Exception ignored) {
                // Closing a RocksDB iterator does not fail; the instance is closed next regardless.
            }
        }
        openIterators.clear();
        states.clear();
        if (timerWrites != null) {
            timerWrites.close();
        }
        instance.close();
    }

    @Override
    public String toString() {
        return "RocksDBKeyedStateBackend{operator=" + operatorName + ", " + keyGroupRange
                + ", directory=" + instance.directory() + '}';
    }
}
