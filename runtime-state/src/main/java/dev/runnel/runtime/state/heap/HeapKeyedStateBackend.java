package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.backend.AbstractKeyedStateBackend;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.KeyExtractorFunction;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.state.snapshot.format.SnapshotSection;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import dev.runnel.runtime.state.ttl.TtlSnapshotFilter;
import dev.runnel.runtime.state.ttl.TtlStateFactory;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The heap store: keyed state and timers as Java objects on the JVM heap, in hash maps per state
 * ({@link StateTable}, {@link StateMap}: per key group for a key's own state, per namespace shard for
 * window state); a queue of timers ordered by timestamp is one {@link BucketedPriorityQueueSet} for the whole
 * range (each timer tagged with its key group), a queue in any other order a
 * {@link KeyGroupPartitionedPriorityQueue} of {@link HeapPriorityQueueSet}s. Fast (no serialization on access;
 * values are held by reference, as in Flink's heap backend) and bounded by the heap.
 *
 * <p>Snapshots are Runnel's shared format, so they restore into this store or the RocksDB store, at
 * any parallelism. Their synchronous phase pins a version and shares the tables' entry arrays
 * (copy-on-write, see {@link StateTable} and {@link SnapshotVersions}) and copies the references of
 * the timers; the entries are serialized later, by the snapshot's writing thread, while the task
 * thread goes on changing copies. Restores read the key groups of this backend's range from
 * every handle at construction, verifying checksums; since serializers are only known once operators
 * register their states, each state's sections are kept raw and decoded on registration (after a
 * serializer-identity check). States that are never registered are written into later snapshots
 * unchanged. Expired entries of TTL state are left out of snapshots.
 *
 * <p>Contract: task thread only, no locks; the snapshots it hands out are written on any thread.
 * Keys, namespaces and stored values are held by reference and must not be mutated in ways that
 * change their {@code equals}/{@code hashCode} while stored; a value read from the state must not be
 * changed after the next snapshot's synchronous phase without reading it again (it may then be the
 * snapshot's). Null keys and namespaces are rejected. {@link #close()} releases pending snapshots and
 * drops everything; the backend is unusable after.
 *
 * @param <K> the key type
 */
public final class HeapKeyedStateBackend<K> extends AbstractKeyedStateBackend<K> {

    /** A registered priority queue, with what its snapshots need. */
    private record RegisteredQueue<T extends HeapPriorityQueueElement>(
            KeyGroupSnapshotQueue<T> queue, TypeSerializer<T> serializer,
            StateMetaInfo metaInfo) {}

    private final int firstKeyGroup;
    private final int lastKeyGroup;
    private final HeapKeyContext<K> context = new HeapKeyContext<>();
    /** Which snapshots may still read the tables' entries: the copy-on-write bookkeeping. */
    private final SnapshotVersions versions = new SnapshotVersions();
    private final HeapStateCodec codec;

    /** By name, in registration order (which is snapshot order). */
    private final LinkedHashMap<String, StateTable<K, ?, ?>> tables = new LinkedHashMap<>();
    /** The tables of per-key state (void namespace), which {@link #prefetch} reads ahead in. */
    private StateTable<?, ?, ?>[] prefetchTables = new StateTable<?, ?, ?>[0];
    private final int[] prefetchOffsets = new int[PREFETCH_GROUP];
    private final int[] prefetchSlots = new int[PREFETCH_GROUP];
    /** Keeps the prefetch reads from being optimized away; never read. */
    @SuppressWarnings("unused")
    private int prefetched;
    private final LinkedHashMap<String, RegisteredQueue<?>> queues = new LinkedHashMap<>();
    /** Restored states not registered yet. */
    private final LinkedHashMap<String, RestoredState> restored;

    /**
     * Creates the backend and reads the restore state of its key groups.
     *
     * @throws IOException if a snapshot is unreadable, truncated or corrupt (the message names it, the
     *     key group and the state)
     */
    public HeapKeyedStateBackend(KeyedStateBackendParameters<K> parameters) throws IOException {
        super(parameters);
        this.firstKeyGroup = keyGroupRange.getStartKeyGroup();
        this.lastKeyGroup = keyGroupRange.getEndKeyGroup();
        this.codec = new HeapStateCodec(numberOfKeyGroups);
        this.context.keyGroup = -1;
        this.context.interner = KeyInterner.forKeys(keySerializer);
        this.restored = RestoredState.read(parameters.restoreState(), keyGroupRange);
    }

    // ------------------------------------------------------------------ keys

    @Override
    public void setCurrentKey(K newKey) {
        if (newKey == null) {
            throw new NullPointerException("operator '" + operatorName + "': the current key must not be null");
        }
        // KeyGroupRangeAssignment.assignToKeyGroup(key) is this, with the key's hash code computed
        // once here because the state tables need it too.
        int hash = newKey.hashCode();
        setKey(newKey, hash, KeyGroupRangeAssignment.computeKeyGroupForKeyHash(hash, numberOfKeyGroups));
    }

    @Override
    public void setCurrentKeyAndKeyGroup(K newKey, int keyHash, int keyGroup) {
        if (newKey == null) {
            throw new NullPointerException("operator '" + operatorName + "': the current key must not be null");
        }
        setKey(newKey, keyHash, keyGroup);
    }

    @Override
    public void setCurrentKeyAndKeyGroup(K newKey, int keyGroup) {
        if (newKey == null) {
            throw new NullPointerException("operator '" + operatorName + "': the current key must not be null");
        }
        setKey(newKey, newKey.hashCode(), keyGroup);
    }

    private void setKey(K key, int hash, int keyGroup) {
        if (keyGroup < firstKeyGroup || keyGroup > lastKeyGroup) {
            throw new IllegalArgumentException(String.format("Key %s of operator '%s' belongs to key group %s, which"
                    + " is not in this subtask's %s (of %s key groups): the record was sent to the wrong subtask."
                    + " Keys must have a deterministic hashCode(), and the stream must be partitioned by the same key"
                    + " (keyBy) with the same max parallelism.", key, operatorName, keyGroup, keyGroupRange,
                    numberOfKeyGroups));
        }
        context.set(key, hash, keyGroup, keyGroup - firstKeyGroup);
    }

    /**
     * Keys per {@link #prefetch}: enough independent reads in flight to hide the memory latency of a
     * lookup, few enough that what the first keys read is still in the L1 cache when they are processed.
     */
    static final int PREFETCH_GROUP = 16;

    @Override
    public int prefetchGroupSize() {
        return PREFETCH_GROUP;
    }

    /** Reads ahead in every per-key state table, see {@link StateTable#prefetch}. */
    @Override
    public void prefetch(int[] keyHashes, int[] keyGroups, int count) {
        StateTable<?, ?, ?>[] prefetching = prefetchTables;
        if (prefetching.length == 0) {
            return;
        }
        int n = Math.min(count, PREFETCH_GROUP);
        for (int k = 0; k < n; k++) {
            prefetchOffsets[k] = keyGroups[k] - firstKeyGroup;
        }
        int acc = 0;
        int namespaceHash = VoidNamespace.INSTANCE.hashCode();
        for (StateTable<?, ?, ?> table : prefetching) {
            acc += table.prefetch(keyHashes, prefetchOffsets, prefetchSlots, n, namespaceHash);
        }
        prefetched += acc;
    }

    @Override
    public K getCurrentKey() {
        return context.key;
    }

    /** The interned instance equal to the current key, for string and boxed primitive keys; see {@link KeyInterner}. */
    @Override
    public K retainedCurrentKey() {
        return context.retainedKey();
    }

    @Override
    public int getCurrentKeyGroupIndex() {
        return context.keyGroup;
    }

    // ------------------------------------------------------------------ keyed state

    /**
     * Creates the plain heap state for {@code descriptor} (TTL-wrapped already if it has a TTL),
     * decoding its restored entries if there are any. Used through {@link TtlStateFactory}.
     */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected <N, SV, S extends State> S createRawState(TypeSerializer<N> namespaceSerializer,
            StateDescriptor<S, SV> descriptor) throws IOException {
        String name = descriptor.getName();
        StateMetaInfo metaInfo = StateMetaInfo.forKeyedState(keySerializer, namespaceSerializer, descriptor);
        TtlSnapshotFilter ttlFilter = descriptor.getTtlConfig().isEnabled()
                ? new TtlSnapshotFilter(descriptor.getTtlConfig(), ttlTimeProvider)
                : null;
        StateTable<K, N, SV> table = new StateTable<>(name, metaInfo, context, versions,
                keyGroupRange.getNumberOfKeyGroups(),
                keySerializer, namespaceSerializer, descriptor.getSerializer(), ttlFilter,
                descriptor.getType() == StateDescriptor.Type.VALUE,
                // state in namespaces other than the key's own (windows) is created and dropped all the time
                !(namespaceSerializer instanceof VoidNamespaceSerializer));
        RestoredState restoredState = restored.get(name);
        if (restoredState != null) {
            metaInfo.checkCanRestore(restoredState.metaInfo, restoredState.source);
            SnapshotSection[] sections = restoredState.sections;
            for (int i = 0; i < sections.length; i++) {
                if (sections[i] != null) {
                    codec.restore(table, sections[i], i);
                }
            }
        }
        N defaultNamespace = namespaceSerializer instanceof VoidNamespaceSerializer
                ? (N) VoidNamespace.INSTANCE
                : null;
        State state = switch (descriptor.getType()) {
            case VALUE -> new HeapValueState<>(table, defaultNamespace);
            case LIST -> new HeapListState<>((StateTable) table, defaultNamespace);
            case MAP -> new HeapMapState<>((StateTable) table, defaultNamespace);
            case REDUCING -> new HeapReducingState<>(table, defaultNamespace,
                    ((ReducingStateDescriptor<SV>) descriptor).getReduceFunction());
            case AGGREGATING -> new HeapAggregatingState<>(table, defaultNamespace,
                    (AggregateFunction<Object, SV, Object>) ((AggregatingStateDescriptor) descriptor).getAggregateFunction());
        };
        restored.remove(name);
        tables.put(name, table);
        if (table.prefetches()) {
            prefetchTables = java.util.Arrays.copyOf(prefetchTables, prefetchTables.length + 1);
            prefetchTables[prefetchTables.length - 1] = table;
        }
        return (S) state;
    }

    @Override
    public <N> Stream<K> getKeys(String stateName, N namespace) {
        checkOpen();
        Objects.requireNonNull(namespace, "namespace");
        StateTable<K, ?, ?> table = tables.get(stateName);
        // a copy, so callers may change the state while consuming the stream
        return table == null ? Stream.empty() : table.keys(namespace).stream();
    }

    // ------------------------------------------------------------------ timers

    @Override
    protected <T extends HeapPriorityQueueElement> KeyGroupedInternalPriorityQueue<T> createQueue(
            String stateName,
            TypeSerializer<T> byteOrderedElementSerializer,
            PriorityComparator<T> comparator,
            KeyExtractorFunction<T> keyExtractor) {
        StateMetaInfo metaInfo = StateMetaInfo.forPriorityQueue(stateName, keySerializer, byteOrderedElementSerializer);
        KeyGroupSnapshotQueue<T> queue = comparator instanceof LongPriorityComparator<T> byLong
                ? new BucketedPriorityQueueSet<>(byLong, keyExtractor, keyGroupRange, numberOfKeyGroups)
                : new KeyGroupPartitionedPriorityQueue<>(keyExtractor, comparator,
                        HeapPriorityQueueSet.factory(), keyGroupRange, numberOfKeyGroups);
        RestoredState restoredState = restored.get(stateName);
        if (restoredState != null) {
            metaInfo.checkCanRestore(restoredState.metaInfo, restoredState.source);
            try {
                for (SnapshotSection section : restoredState.sections) {
                    if (section != null) {
                        codec.restoreQueue(queue, byteOrderedElementSerializer, section);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
            restored.remove(stateName);
        }
        queues.put(stateName, new RegisteredQueue<>(queue, byteOrderedElementSerializer, metaInfo));
        return queue;
    }

    // ------------------------------------------------------------------ snapshots

    /**
     * Pins a snapshot version (from now on entries are copied before they change), shares every
     * table's entry arrays for the range (O(number of maps)), and copies the references of the
     * range's timers (O(number of timers)); serializes nothing.
     */
    @Override
    protected HeapKeyedStateSnapshot takeSnapshot(KeyGroupRange range) {
        SnapshotVersions.Pin pin = versions.pin();
        try {
            return capture(range, pin);
        } catch (RuntimeException | Error e) {
            pin.release(); // or every later write would copy its entry
            throw e;
        }
    }

    private HeapKeyedStateSnapshot capture(KeyGroupRange range, SnapshotVersions.Pin pin) {
        List<StateMetaInfo> metaInfos = new ArrayList<>(tables.size() + queues.size() + restored.size());
        int fromOffset = range.getStartKeyGroup() - firstKeyGroup;
        int toOffset = range.getEndKeyGroup() - firstKeyGroup;
        List<StateTableSnapshot<?, ?, ?>> tableSnapshots = new ArrayList<>(tables.size());
        for (StateTable<K, ?, ?> table : tables.values()) {
            metaInfos.add(table.metaInfo);
            tableSnapshots.add(table.snapshot(fromOffset, toOffset));
        }
        List<HeapKeyedStateSnapshot.QueueSnapshot> queueSnapshots = new ArrayList<>(queues.size());
        for (RegisteredQueue<?> queue : queues.values()) {
            metaInfos.add(queue.metaInfo());
            queueSnapshots.add(
                    new HeapKeyedStateSnapshot.QueueSnapshot(queue.serializer(), queue.queue().copyElements(range)));
        }
        for (RestoredState state : restored.values()) {
            metaInfos.add(state.metaInfo);
        }
        return new HeapKeyedStateSnapshot(range, "snapshot of " + range + " of operator '" + operatorName + "'",
                numberOfKeyGroups, firstKeyGroup, metaInfos, tableSnapshots, queueSnapshots,
                List.copyOf(restored.values()), ttlTimeProvider.currentTimestamp(), pin);
    }

    // ------------------------------------------------------------------ lifecycle

    /** Drops all state, timers and restored sections. */
    @Override
    public void close() {
        if (!markClosed()) {
            return;
        }
        for (StateTable<K, ?, ?> table : tables.values()) {
            table.clear();
        }
        tables.clear();
        prefetchTables = new StateTable<?, ?, ?>[0];
        queues.clear();
        restored.clear();
        context.set(null, 0, -1, -1);
    }

    /** The number of entries of state {@code stateName} over all key groups; for tests and metrics. */
    public int numEntries(String stateName) {
        StateTable<K, ?, ?> table = tables.get(stateName);
        return table == null ? 0 : table.size();
    }

    /** The number of maps that hold state {@code stateName}'s entries; for tests of the layout. */
    int numMaps(String stateName) {
        StateTable<K, ?, ?> table = tables.get(stateName);
        return table == null ? 0 : table.mapCount();
    }

    @Override
    public int numKeyValueStateEntries() {
        return tables.values().stream().mapToInt(StateTable::size).sum();
    }

    /** The names of restored states no operator has registered yet; for tests and diagnostics. */
    public List<String> pendingRestoredStates() {
        return List.copyOf(restored.keySet());
    }

    @Override
    public String toString() {
        return "HeapKeyedStateBackend{operator=" + operatorName + ", " + keyGroupRange + ", states=" + tables.keySet()
                + ", queues=" + queues.keySet() + ", restoredUnregistered=" + restored.keySet() + '}';
    }
}
